"""pytest plugin (entry point pytest11): every case x rule set of the suite
a test item, run in process against an engine object of yours.

    pytest --zoneoracle-engine mypkg.adapter:make_engine
    # or in pytest.ini / pyproject.toml ([tool.pytest.ini_options]):
    #   zoneoracle_engine = mypkg.adapter:make_engine
    #   zoneoracle_cases = tests/my-cases          (default: the packaged suite)
    #   zoneoracle_rulesets = mtg-current fab      (default: every rule set)

MODULE:FACTORY names a callable returning the engine object (it answers
requests as ci/adapters/python/engine.py's Server: handle(dict) -> dict);
one engine serves the whole session. Items are named
zoneoracle::CASE-ID[RULESET]; `-k` selects among them. A case the engine
does not declare (rule set, feature) is a skip with the reason; a failing
one fails with file:line, what, expected and observed. Without an engine
named, the plugin adds nothing.
"""
import importlib

import pytest

import zoneoracle


def pytest_addoption(parser):
    group = parser.getgroup("zoneoracle")
    group.addoption("--zoneoracle-engine", metavar="MODULE:FACTORY",
                    help="gate this engine object against the zoneoracle suite")
    group.addoption("--zoneoracle-cases", metavar="PATH", action="append",
                    help="case files or directories (default: the packaged suite)")
    group.addoption("--zoneoracle-ruleset", metavar="ID", action="append",
                    help="only these rule sets (repeatable)")
    parser.addini("zoneoracle_engine", "MODULE:FACTORY of the engine to gate")
    parser.addini("zoneoracle_cases", "case files or directories", type="args")
    parser.addini("zoneoracle_rulesets", "only these rule sets", type="args")


def _factory(spec):
    module, _, attr = spec.partition(":")
    if not module or not attr:
        raise pytest.UsageError(f"--zoneoracle-engine wants MODULE:FACTORY, not {spec!r}")
    target = importlib.import_module(module)
    for part in attr.split("."):
        target = getattr(target, part)
    return target


class ZoneoracleSuite(pytest.Collector):
    """The suite as one collector: an item per case x rule set."""

    def collect(self):
        config = self.config
        paths = config.getoption("zoneoracle_cases") or config.getini("zoneoracle_cases") or []
        only = set(config.getoption("zoneoracle_ruleset") or config.getini("zoneoracle_rulesets") or [])
        for path, case_id, rulesets, error in zoneoracle.cases(*paths):
            if error:
                yield ZoneoracleInvalid.from_parent(self, name=path, error=error)
                continue
            for rs in rulesets:
                if not only or rs in only:
                    yield ZoneoracleCase.from_parent(self, name=f"{case_id}[{rs}]", path_=path, ruleset=rs)


class ZoneoracleCase(pytest.Item):
    def __init__(self, *, path_, ruleset, **kw):
        super().__init__(**kw)
        self.case_path = path_
        self.ruleset = ruleset

    def runtest(self):
        gate = self.config._zoneoracle_gate()
        for r in gate.run_case(self.case_path, self.ruleset):
            if r.status == "skip":
                pytest.skip(r.message)
            if r.status != "pass":
                raise ZoneoracleFailure(r)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ZoneoracleFailure):
            r = excinfo.value.result
            return f"{r.status.upper()} {r.case_id} [{r.ruleset}]\n  {r.describe()}\n  rules: {', '.join(r.rules)}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.case_path, 0, f"zoneoracle: {self.name}"


class ZoneoracleInvalid(pytest.Item):
    def __init__(self, *, error, **kw):
        super().__init__(**kw)
        self.error = error

    def runtest(self):
        raise ZoneoracleFailure(zoneoracle.CaseResult(self.name, "", "invalid", message=self.error))

    def repr_failure(self, excinfo):
        return self.error


class ZoneoracleFailure(Exception):
    def __init__(self, result):
        super().__init__(result.describe())
        self.result = result


def pytest_configure(config):
    spec = config.getoption("zoneoracle_engine") or config.getini("zoneoracle_engine")
    config._zoneoracle_spec = spec or None
    state = {}

    def gate():
        if "gate" not in state:
            state["gate"] = zoneoracle.Gate(_factory(spec)(), name=spec)
        return state["gate"]

    def close():
        if "gate" in state:
            state.pop("gate").close()

    config._zoneoracle_gate = gate
    config._zoneoracle_close = close


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect
def pytest_collection_modifyitems(session, config, items):
    if not getattr(config, "_zoneoracle_spec", None):
        return
    suite = ZoneoracleSuite.from_parent(session, name="zoneoracle")
    items.extend(suite.collect())


def pytest_unconfigure(config):
    close = getattr(config, "_zoneoracle_close", None)
    if close:
        close()
