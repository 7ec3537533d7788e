#!/usr/bin/env python3
"""Check zoneoracle's files against their JSON Schemas.

    validate_report.py [--schemas DIR] [--kind KIND] FILE...
    validate_report.py [--schemas DIR] --check

Each FILE is one of (KIND, else told by its name):

  run         a run record, REPORT_DIR/run.jsonl (*.jsonl):
              run-record.schema.json line by line, and what a schema
              cannot say: the header first and only there, the footer
              last, the footer's totals equal to the lines counted, the
              same run_id in header and footer, unknown_gaps in the footer
              exactly when the header names a known-gaps file, every
              undeclared rule set a rule set of the run and every case
              under one a skip;
  badge       a gate's REPORT_DIR/badge.json (*.json): badge.schema.json;
  known-gaps  a known-gaps file (*.yaml, *.yml; needs PyYAML, Debian
              python3-yaml): known-gaps.schema.json, and no entry twice.

Every problem is printed as FILE:LINE: what (LINE of the run record; 1
for the other files), with the JSON path and the schema keywords; the
last line is "files: N checked, M invalid". The schemas are described in
PROTOCOL.md, next to them ("Run record"). Their $id is
urn:zoneoracle:files:NAME; nothing is fetched over the network.

--check only loads the three schemas and checks them against their
metaschema.

Exit: 0 every file valid, 1 some invalid, 2 usage, I/O or a broken schema,
3 the jsonschema module (or PyYAML, for a known-gaps file) is missing.
Standard library and jsonschema only; works with jsonschema 4.10 (Debian
bookworm) and later releases.
"""

import argparse
import json
import os
import sys

try:
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError:
    sys.stderr.write(
        "validate_report.py: the Python module jsonschema (4.10 or later) is missing: "
        "install the Debian package python3-jsonschema (or: pip install jsonschema)\n")
    sys.exit(3)

# the JSON path of an error, written as the protocol checker writes it
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from validate import json_path  # noqa: E402

SCHEMAS = {"run": "run-record.schema.json", "badge": "badge.schema.json",
           "known-gaps": "known-gaps.schema.json"}
ID_PREFIX = "urn:zoneoracle:files:"
# the footer's totals: the case statuses each counts
TOTALS = {"passed": ("pass",), "failed": ("fail",), "errors": ("error", "crash", "timeout"),
          "skipped": ("skip",), "xfailed": ("xfail",), "xpassed": ("xpass",)}


def fail(msg):
    sys.stderr.write(f"validate_report.py: {msg}\n")
    sys.exit(2)


def load_validators(directory):
    """{kind: validator} from the schema files in directory; exits 2 on error."""
    validators = {}
    for kind, name in SCHEMAS.items():
        path = os.path.join(directory, name)
        try:
            with open(path, encoding="utf-8") as f:
                schema = json.load(f)
        except (OSError, ValueError) as e:
            fail(f"{path}: {e}")
        try:
            Draft202012Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as e:
            fail(f"{path}: not a valid JSON Schema: {e.message}")
        if schema.get("$id") != ID_PREFIX + name:
            fail(f"{path}: $id is {json.dumps(schema.get('$id'))}, expected \"{ID_PREFIX + name}\"")
        validators[kind] = Draft202012Validator(schema)
    return validators


def errors_of(validator, value):
    """One line per error, deepest first: where, what, the schema keywords."""
    out = []
    for e in sorted(validator.iter_errors(value), key=lambda e: -len(e.absolute_path)):
        keywords = "/".join(str(k) for k in e.absolute_schema_path)
        message = e.message if len(e.message) <= 200 else e.message[:200] + "..."
        out.append(f"at {json_path(e.absolute_path)}: {message} (schema keywords: {keywords})")
    return out


def check_run(path, validator):
    """Problems of a run record: [(line, text)]."""
    problems = []
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        return [(0, f"cannot read: {e}")]
    if not lines:
        return [(1, "empty: not a run record")]
    objs, statuses, counts = [], {}, {"invalid": 0, "unknown_gap": 0}
    for n, text in enumerate(lines, 1):
        try:
            obj = json.loads(text)
        except ValueError as e:
            problems.append((n, f"not JSON: {e}"))
            continue
        problems += [(n, p) for p in errors_of(validator, obj)]
        if not isinstance(obj, dict):
            continue
        objs.append((n, obj))
        kind = obj.get("type")
        if kind == "case":
            statuses[obj.get("status")] = statuses.get(obj.get("status"), 0) + 1
        elif kind in counts:
            counts[kind] += 1
    if problems:
        return problems
    types = [o.get("type") for _, o in objs]
    if types[0] != "header":
        problems.append((1, "the first line is not the header"))
    if types.count("header") != 1:
        problems.append((1, f"{types.count('header')} header lines, expected 1"))
    if types[-1] != "footer" or types.count("footer") != 1:
        problems.append((len(lines), "the last line, and only it, must be the footer"))
    if problems:
        return problems
    header, footer = objs[0][1], objs[-1][1]
    n = len(lines)
    for key, names in TOTALS.items():
        want = sum(statuses.get(s, 0) for s in names)
        if footer[key] != want:
            problems.append((n, f"footer {key} is {footer[key]}, but {want} case lines say {'/'.join(names)}"))
    if footer["invalid"] != counts["invalid"]:
        problems.append((n, f"footer invalid is {footer['invalid']}, but there are {counts['invalid']} invalid lines"))
    if ("known_gaps" in header) != ("unknown_gaps" in footer):
        problems.append((n, "the footer has unknown_gaps exactly when the header has known_gaps"))
    elif "unknown_gaps" in footer and footer["unknown_gaps"] != counts["unknown_gap"]:
        problems.append((n, f"footer unknown_gaps is {footer['unknown_gaps']}, but there are "
                            f"{counts['unknown_gap']} unknown_gap lines"))
    if counts["unknown_gap"] and "known_gaps" not in header:
        problems.append((n, "unknown_gap lines, but the header names no known-gaps file"))
    undeclared = header.get("undeclared_rulesets", [])
    for rs in undeclared:
        if rs not in header["rulesets"]:
            problems.append((1, f"undeclared rule set {json.dumps(rs)} is not a rule set of the run"))
    for ln, o in objs:
        if o.get("type") == "case" and o.get("ruleset") in undeclared and o.get("status") != "skip":
            problems.append((ln, f"a case under {o['ruleset']}, which the engine does not declare, "
                                 f"is {o.get('status')}, not skip"))
    if header.get("run_id") != footer.get("run_id"):
        problems.append((n, f"footer run_id {json.dumps(footer.get('run_id'))} is not the header's "
                            f"{json.dumps(header.get('run_id'))}"))
    return problems


def check_badge(path, validator):
    try:
        with open(path, encoding="utf-8") as f:
            badge = json.load(f)
    except (OSError, ValueError) as e:
        return [(1, f"not JSON: {e}")]
    return [(1, p) for p in errors_of(validator, badge)]


def check_known_gaps(path, validator):
    try:
        import yaml
    except ImportError:
        sys.stderr.write("validate_report.py: a known-gaps file needs PyYAML: install the Debian "
                         "package python3-yaml\n")
        sys.exit(3)
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
        return [(1, f"not YAML: {e}")]
    if data is None:
        data = []  # only comments: an empty list
    problems = [(1, p) for p in errors_of(validator, data)]
    if problems:
        return problems
    every, one = {}, {}
    for k, g in enumerate(data):
        where = f"at $[{k}]: {g['id']}" + (f" [{g['ruleset']}]" if "ruleset" in g else "")
        if g["id"] in every or (g.get("ruleset"), g["id"]) in one:
            problems.append((1, f"{where}: listed twice"))
        if "ruleset" in g:
            one[(g["ruleset"], g["id"])] = k
        else:
            every[g["id"]] = k
    return problems


def kind_of(path, forced):
    if forced:
        return forced
    if path.endswith(".jsonl"):
        return "run"
    if path.endswith((".yaml", ".yml")):
        return "known-gaps"
    if path.endswith(".json"):
        return "badge"
    fail(f"{path}: cannot tell what it is from its name: give --kind run|badge|known-gaps")
    return None


def main():
    ap = argparse.ArgumentParser(description="Check zoneoracle's run records, badges and known-gaps files.")
    ap.add_argument("--schemas", default=os.path.dirname(os.path.abspath(__file__)),
                    help="the schema directory (default: this script's)")
    ap.add_argument("--kind", choices=sorted(SCHEMAS), help="what every FILE is (default: by its name)")
    ap.add_argument("--check", action="store_true", help="only load and check the schemas")
    ap.add_argument("files", nargs="*", metavar="FILE")
    args = ap.parse_args()
    if not args.check and not args.files:
        ap.error("a FILE is needed (or --check)")
    validators = load_validators(args.schemas)
    if args.check:
        print(f"files: {len(validators)} schemas in {args.schemas} load and are valid")
        return 0
    checks = {"run": check_run, "badge": check_badge, "known-gaps": check_known_gaps}
    invalid = 0
    for path in args.files:
        kind = kind_of(path, args.kind)
        problems = checks[kind](path, validators[kind])
        for line, text in problems:
            print(f"{path}:{line}: {text}" if line else f"{path}: {text}")
        invalid += bool(problems)
    print(f"files: {len(args.files)} checked, {invalid} invalid")
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
