#!/usr/bin/env python3
"""The rule set JSON Schema (oracle/rulesets/schema.json) against real files.

Checks that:
  - the schema itself is a valid draft 2020-12 schema;
  - every built-in rule set (oracle/rulesets/*.yaml), every rule set file
    under oracle/tests/ruleset-file/ and every rule set written in a yaml
    block of oracle/rulesets/RULESETS.md validates;
  - a list of deliberately broken rule sets is rejected by the schema.

With --zoneoracle BIN it also asks the loader itself (`BIN check
--ruleset-file F EMPTY_DIR`): each document above must load, each broken
one the loader is meant to refuse must be refused (exit 3), and a file of
oracle/tests/ruleset-file/ the loader refuses must be refused by the schema
too. Needs python3-yaml and python3-jsonschema. Exits 1 on any problem,
naming it; 0 when all is well.

    python3 oracle/tests/ruleset_schema.py [--zoneoracle build/bin/zoneoracle]
"""
import argparse
import copy
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import yaml
    import jsonschema
except ImportError as e:  # pragma: no cover
    print("ruleset_schema.py: needs python3-yaml and python3-jsonschema (%s)" % e)
    sys.exit(1)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SCHEMA = os.path.join(ROOT, "oracle", "rulesets", "schema.json")
BUILTIN = os.path.join(ROOT, "oracle", "rulesets")
USERDIR = os.path.join(ROOT, "oracle", "tests", "ruleset-file")
DOC = os.path.join(ROOT, "oracle", "rulesets", "RULESETS.md")

problems = []


def problem(msg):
    problems.append(msg)
    print("PROBLEM: " + msg)


def rel(path):
    return os.path.relpath(path, ROOT)


def is_ruleset_doc(d):
    """A rule set document (a case file has rulesets: and steps:)."""
    return isinstance(d, dict) and "steps" not in d and "rulesets" not in d and \
        ("zones" in d or "extends" in d or "switches" in d)


def errors_of(validator, doc):
    return sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))


def where(err):
    return "/".join(str(p) for p in err.absolute_path) or "(top)"


# ---- the loader (optional) ----------------------------------------------

class Loader:
    def __init__(self, binary):
        self.binary = binary
        self.tmp = tempfile.mkdtemp(prefix="ruleset-schema-")
        self.empty = os.path.join(self.tmp, "no-cases")
        os.mkdir(self.empty)
        self.n = 0

    def load(self, text):
        """(exit code, message) of loading text as a --ruleset-file."""
        self.n += 1
        path = os.path.join(self.tmp, "doc%d.yaml" % self.n)
        with open(path, "w") as f:
            f.write(text)
        p = subprocess.run([self.binary, "check", "--ruleset-file", path, self.empty],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        return p.returncode, (p.stderr.strip().splitlines() or [""])[0]


def renamed(text, new_id):
    """The file's text with its top-level id replaced (a built-in rule set
    is already loaded under its own id)."""
    return re.sub(r"(?m)^id:.*$", "id: " + new_id, text, count=1)


# ---- documents that must validate ----------------------------------------

def good_documents(loader):
    """(name, parsed document, text to give the loader) of every rule set
    that must validate."""
    out = []
    for path in sorted(glob.glob(os.path.join(BUILTIN, "*.yaml"))):
        text = open(path).read()
        d = yaml.safe_load(text)
        out.append((rel(path), d, renamed(text, "schema-check-" + str(d.get("id")))))
    for path in sorted(glob.glob(os.path.join(USERDIR, "**", "*.yaml"), recursive=True)):
        text = open(path).read()
        d = yaml.safe_load(text)
        if not is_ruleset_doc(d):
            continue  # a case written for the rule set
        out.append((rel(path), d, text))
    if os.path.exists(DOC):
        text = open(DOC).read()
        for i, m in enumerate(re.finditer(r"(?ms)^```yaml\n(.*?)^```", text)):
            block = m.group(1)
            try:
                d = yaml.safe_load(block)
            except yaml.YAMLError:
                continue
            if is_ruleset_doc(d) and "title" in d:
                line = text.count("\n", 0, m.start()) + 1
                out.append(("%s:%d" % (rel(DOC), line), d, block))
    return out


# ---- documents that must be rejected --------------------------------------

BASE = {
    "id": "schema-bad",
    "title": "a small rule set to break",
    "game": "mtg",
    "zones": {
        "deck": {
            "role": "library",
            "per_player": {"value": True, "rule": "G 1"},
            "visibility": {"value": "hidden", "rule": "G 1"},
            "ordered": {"value": True, "rule": "G 1"},
            "owner_only": {"value": True, "rule": "G 2"},
        },
        "table": {
            "role": "battlefield",
            "visibility": {"value": "public", "rule": "G 1"},
            "arena": {"value": True, "rule": "G 1"},
            "controller": {"value": True, "rule": "G 1"},
        },
    },
    "switches": {
        "new_object": {"value": "every_move", "rule": "G 3"},
        "wrong_owner": {"value": "redirect", "rule": "G 2"},
        "same_zone": {"value": "no_move", "rule": None},
    },
    "rules": [
        {"id": "G 1", "seed": True, "text": "Each player has a hidden deck; the table is public."},
        {"id": "G 2", "text": "A card bound for another player's deck goes to its owner's."},
        {"id": "G 3", "text": "A card that changes zones is a new object."},
    ],
}


def broken(fn):
    d = copy.deepcopy(BASE)
    fn(d)
    return d


def seven_rules(d):
    d["rules"] += [{"id": "G %d" % i, "text": "filler"} for i in range(4, 8)]
    d["switches"]["new_object"]["rule"] = ["G %d" % i for i in range(1, 8)]


# (what, document, does the loader refuse it too?)
BAD = [
    ("unknown top-level key", broken(lambda d: d.update(switchs={})), True),
    ("misspelt zone attribute", broken(lambda d: d["zones"]["deck"].update(
        ordred=d["zones"]["deck"].pop("ordered"))), True),
    ("zone attribute without its rule", broken(lambda d: d["zones"]["deck"].update(ordered=True)), True),
    ("cited value without rule:", broken(lambda d: d["zones"]["deck"]["ordered"].pop("rule")), True),
    ("cited value without value:", broken(lambda d: d["zones"]["deck"]["ordered"].pop("value")), True),
    ("extra key in a cited value", broken(lambda d: d["zones"]["deck"]["ordered"].update(note="x")), True),
    ("unknown role", broken(lambda d: d["zones"]["deck"].update(role="libary")), True),
    ("unknown visibility word", broken(lambda d: d["zones"]["deck"]["visibility"].update(value="secret")), True),
    ("word for a true/false attribute", broken(lambda d: d["zones"]["deck"]["ordered"].update(value="maybe")), True),
    ("capacity over 64", broken(lambda d: d["zones"]["table"].update(capacity={"value": 65, "rule": "G 1"})), True),
    ("unknown holds word", broken(lambda d: d["zones"]["table"].update(holds={"value": ["spells"], "rule": "G 1"})), True),
    ("zone name with a dot", broken(lambda d: d["zones"].update({"side.board": {"role": "other"}})), True),
    ("zone name with a hyphen", broken(lambda d: d["zones"].update({"side-board": {"role": "other"}})), True),
    ("count 0", broken(lambda d: d["zones"]["deck"].update(count={"value": 0, "rule": "G 1"})), True),
    ("game not a word", broken(lambda d: d.update(game="Magic the Gathering")), True),
    ("unknown switch", broken(lambda d: d["switches"].update(new_objects=d["switches"].pop("new_object"))), True),
    ("unknown switch value", broken(lambda d: d["switches"]["new_object"].update(value="sometimes")), True),
    ("seven rules in one citation", broken(seven_rules), True),
    ("rule without text", broken(lambda d: d["rules"][0].pop("text")), True),
    ("unknown key in a rule", broken(lambda d: d["rules"][0].update(note="x")), True),
    ("seed_rules not a list", broken(lambda d: d.update(seed_rules="G 1")), True),
    ("no game and no extends", broken(lambda d: d.pop("game")), True),
    ("no zones and no extends", broken(lambda d: d.pop("zones")), True),
    ("no title", broken(lambda d: d.pop("title")), True),
    # each switch takes only its own value words, in the loader as in the schema
    ("value word of another switch", broken(lambda d: d["switches"].update(
        phasing={"value": "owner_graveyard", "rule": None})), True),
    # issue 31: limits: and displace:
    ("limit among an unknown word", broken(lambda d: d["zones"]["table"].update(
        limits={"value": [{"types": ["tool"], "count": 1, "among": "host"}], "rule": "G 1"})), True),
    ("limit without count", broken(lambda d: d["zones"]["table"].update(
        limits={"value": [{"types": ["tool"]}], "rule": "G 1"})), True),
    ("limit count over 64", broken(lambda d: d["zones"]["table"].update(
        limits={"value": [{"types": ["tool"], "count": 65}], "rule": "G 1"})), True),
    ("limit with an unknown key", broken(lambda d: d["zones"]["table"].update(
        limits={"value": [{"types": ["tool"], "count": 1, "per": "player"}], "rule": "G 1"})), True),
    ("limit counting every type", broken(lambda d: d["zones"]["table"].update(
        limits={"value": [{"types": ["all"], "count": 1}], "rule": "G 1"})), True),
    ("displace without its rule", broken(lambda d: d["zones"]["table"].update(
        capacity={"value": 1, "rule": "G 1"}, displace={"value": "deck"})), True),
    ("instead with neither to nor face", broken(lambda d: d["zones"]["table"].update(
        instead={"value": [{"types": ["tool"]}], "rule": "G 1"})), True),
    ("instead with an unknown face", broken(lambda d: d["zones"]["table"].update(
        instead={"value": [{"to": "deck", "face": "sideways"}], "rule": "G 1"})), True),
    ("group not a word", broken(lambda d: d["zones"]["table"].update(
        group={"value": "Field-Zones", "rule": "G 1"})), True),
    ("wrong_owner not a word of the switch", broken(lambda d: d["zones"]["deck"].update(
        wrong_owner={"value": "refuse", "rule": "G 1"})), True),
    ("follows_control not a zone name", broken(lambda d: d["zones"]["table"].update(
        follows_control={"value": "Main-Zone", "rule": "G 1"})), True),
    ("at_index with index 0", broken(lambda d: d["zones"]["table"].update(
        at_index={"value": [{"types": ["pendulum"], "index": [0]}], "rule": "G 1"})), True),
    ("face_up_only with the word all", broken(lambda d: d["zones"]["table"].update(
        face_up_only={"value": ["all"], "rule": "G 1"})), True),
    ("seats with seat 9", broken(lambda d: d["zones"]["deck"].update(
        seats={"value": [9], "rule": "G 1"})), True),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--zoneoracle", help="the zoneoracle binary: also check the loader agrees")
    args = ap.parse_args()

    with open(SCHEMA) as f:
        schema = json.load(f)
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as e:
        problem("%s is not a valid draft 2020-12 schema: %s" % (rel(SCHEMA), e.message))
        return 1
    v = jsonschema.Draft202012Validator(schema)
    loader = Loader(args.zoneoracle) if args.zoneoracle else None

    # the base of the broken documents is itself sound
    good = good_documents(loader)
    good.append(("(the base of the broken documents)", BASE, yaml.safe_dump(BASE, sort_keys=False)))
    ngood = 0
    for name, d, text in good:
        accepted = True
        if loader:
            rc, msg = loader.load(text)
            accepted = rc == 0
            if not accepted and name.startswith(rel(USERDIR)):
                # a deliberately broken user file: the schema must refuse it too
                if not errors_of(v, d):
                    problem("%s: the loader refuses it (%s) but the schema accepts it" % (name, msg))
                continue
            if not accepted:
                problem("%s: the loader refuses it: %s" % (name, msg))
        errs = errors_of(v, d)
        for e in errs[:5]:
            problem("%s: does not validate at %s: %s" % (name, where(e), e.message))
        if not errs and accepted:
            ngood += 1
            print("ok    %s" % name)

    nbad = 0
    for what, d, loader_refuses in BAD:
        errs = errors_of(v, d)
        if not errs:
            problem("broken rule set accepted by the schema: %s" % what)
            continue
        if loader:
            rc, msg = loader.load(yaml.safe_dump(d, sort_keys=False))
            if loader_refuses and rc != 3:
                problem("broken rule set '%s': the loader exits %d, expected 3" % (what, rc))
                continue
            if not loader_refuses and rc != 0:
                problem("'%s' is meant to be refused by the schema only; the loader exits %d: %s"
                        % (what, rc, msg))
                continue
        nbad += 1
        print("ok    rejected: %-36s (%s: %s)" % (what, where(errs[0]), errs[0].message[:60]))

    print("%d rule set files validate, %d broken ones rejected%s; %d problems"
          % (ngood, nbad, " (loader agrees)" if loader else "", len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
