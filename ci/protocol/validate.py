#!/usr/bin/env python3
"""Check a zcp/1 transcript against the protocol's JSON Schemas.

    validate.py [--schemas DIR] [--limit N] TRANSCRIPT
    validate.py [--schemas DIR] --check

TRANSCRIPT is what `zoneoracle gate --validate` writes to
REPORT_DIR/protocol.jsonl: one JSON object per line,
{"dir": "request"|"response", "op": OP, "message": {...}}, where a
response's op is the op of the request it answers, and "raw": TEXT takes
the place of "message" for an answer that was not JSON.

Each request is checked against OP.request.json; each answer against
error.response.json when it says ok: false, else OP.response.json (all in
DIR, default: this script's directory; they share common.json). Every
invalid message is printed with its line in the transcript, the schema file
and the JSON path of the error; the last line is
"protocol: N messages checked, M invalid". The messages themselves are
described in PROTOCOL.md, next to the schemas.

Each schema's $id names no host: urn:zoneoracle:zcp1:FILE (for example
urn:zoneoracle:zcp1:common.json). A $ref to another file uses that URN
(urn:zoneoracle:zcp1:common.json#/$defs/step); a $ref inside one file is a
bare fragment (#/$defs/step). The schemas are never fetched: every $ref is
resolved among the files of DIR, and loading them fails (exit 2) when a
$id is missing, not that form, or repeated, or when a $ref does not
resolve.

--check only loads the schemas, checks them against their metaschema and
resolves every $ref.

The *.schema.json files beside them (the run record, the badge, the
known-gaps file) are not zcp/1 messages: validate_report.py checks those.

Exit: 0 every message valid, 1 some invalid, 2 usage, I/O or a broken
schema, 3 the jsonschema module is missing (Debian: python3-jsonschema).

Standard library and jsonschema only; works with jsonschema 4.10 (Debian
bookworm: RefResolver) and 4.18 and later (the referencing library).
"""

import argparse
import json
import os
import sys
from urllib.parse import unquote, urldefrag, urljoin, urlsplit, uses_relative

try:
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError:
    sys.stderr.write(
        "validate.py: the Python module jsonschema (4.10 or later) is missing: "
        "install the Debian package python3-jsonschema (or: pip install jsonschema)\n")
    sys.exit(3)

try:  # jsonschema >= 4.18 resolves $ref through referencing
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012
except ImportError:  # jsonschema 4.10 .. 4.17: RefResolver
    Registry = None


def load_schemas(directory):
    """{file name: schema} for every *.json in directory but the *.schema.json
    of zoneoracle's own files (validate_report.py's); exits 2 on error."""
    schemas = {}
    try:
        names = sorted(n for n in os.listdir(directory)
                       if n.endswith(".json") and not n.endswith(".schema.json"))
    except OSError as e:
        fail(f"{directory}: {e.strerror}")
    for name in names:
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
        schemas[name] = schema
    if "common.json" not in schemas:
        fail(f"{directory}: no common.json: not the zcp/1 schema directory")
    check_ids(directory, schemas)
    check_refs(directory, schemas)
    return schemas


ID_PREFIX = "urn:zoneoracle:zcp1:"


def check_ids(directory, schemas):
    """Every schema has the $id urn:zoneoracle:zcp1:<its file name>."""
    for name, schema in schemas.items():
        want = ID_PREFIX + name
        if schema.get("$id") != want:
            fail(f"{os.path.join(directory, name)}: $id is {json.dumps(schema.get('$id'))}, "
                 f"expected \"{want}\"")


def join_uri(base, ref):
    """urljoin that also works for a base that is a URN.

    urllib joins only hierarchical URIs (http, file...): against
    urn:zoneoracle:zcp1:common.json it returns "#/$defs/x" unchanged, which
    jsonschema's RefResolver (before 4.18) then looks up in the wrong
    document. A fragment-only ref stays in its base document; any other ref
    against a URN is taken as it is written (absolute)."""
    if base and urlsplit(base).scheme not in uses_relative:
        return urldefrag(base)[0] + ref if ref.startswith("#") else ref
    return urljoin(base, ref)


def refs_in(node):
    """Every $ref string in a schema, depth first."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from refs_in(value)
    elif isinstance(node, list):
        for item in node:
            yield from refs_in(item)


def check_refs(directory, schemas):
    """Every $ref resolves to a part of one of the schema files."""
    by_id = {s["$id"]: s for s in schemas.values()}
    for name, schema in schemas.items():
        for ref in refs_in(schema):
            uri, fragment = urldefrag(join_uri(schema["$id"], ref))
            node = by_id.get(uri)
            for part in fragment.split("/")[1:] if node is not None else ():
                part = unquote(part).replace("~1", "/").replace("~0", "~")
                if isinstance(node, list):
                    node = node[int(part)] if part.isdigit() and int(part) < len(node) else None
                else:
                    node = node.get(part) if isinstance(node, dict) else None
            if node is None:
                fail(f"{os.path.join(directory, name)}: $ref {json.dumps(ref)} does not resolve "
                     "(another file is named by its $id, urn:zoneoracle:zcp1:FILE)")


def make_validators(schemas):
    """{file name: validator}; $refs between the files resolve by $id, never
    over the network."""
    store = {s["$id"]: s for s in schemas.values() if "$id" in s}
    validators = {}
    if Registry is not None:
        registry = Registry().with_resources(
            (uri, DRAFT202012.create_resource(s)) for uri, s in store.items())
    for name, schema in schemas.items():
        try:
            if Registry is None:
                raise TypeError("no referencing")
            validators[name] = Draft202012Validator(schema, registry=registry)
        except TypeError:  # referencing installed beside a jsonschema < 4.18
            resolver = jsonschema.RefResolver.from_schema(schema, store=store,
                                                          urljoin_cache=join_uri)
            validators[name] = Draft202012Validator(schema, resolver=resolver)
    return validators


def json_path(parts):
    """$.objects.bear.layer, $.events[0].handle"""
    out = "$"
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif p and all(c.isalnum() or c in "_-" for c in p):
            out += f".{p}"
        else:
            out += "[" + json.dumps(p) + "]"
    return out


def describe(validator, message):
    """The most telling error: where, what, and the schema keywords."""
    errors = list(validator.iter_errors(message))
    # unevaluatedProperties also fails wherever a $ref'd part failed
    # (jsonschema 4.10); the failure underneath is the one to show
    primary = [e for e in errors if e.validator != "unevaluatedProperties"] or errors
    error = jsonschema.exceptions.best_match(primary)
    keywords = "/".join(str(k) for k in error.absolute_schema_path)
    others = len(errors) - 1
    more = f"; {others} more error{'s' if others > 1 else ''}" if others else ""
    return (f"at {json_path(error.absolute_path)}: {short(error.message)}"
            f" (schema keywords: {keywords}{more})")


def short(text, limit=300):
    return text if len(text) <= limit else text[:limit] + "..."


def check(transcript, validators, limit):
    checked = invalid = 0
    try:
        f = open(transcript, encoding="utf-8", errors="replace")
    except OSError as e:
        fail(f"{transcript}: {e.strerror}")
    with f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                direction, op = rec["dir"], rec["op"]
            except (ValueError, KeyError, TypeError):
                fail(f"{transcript}:{lineno}: not a transcript line (dir, op, message)")
            checked += 1
            problem = None
            message = rec.get("message")
            mid = message.get("id") if isinstance(message, dict) else None
            what = f"{direction} {op}" + (f" (id {mid})" if mid is not None else "")
            if "raw" in rec:
                problem = "is not JSON: " + short(json.dumps(rec["raw"]), 120)
            else:
                if direction == "response" and isinstance(message, dict) and message.get("ok") is False:
                    schema = "error.response.json"
                else:
                    schema = f"{op}.{direction}.json"
                validator = validators.get(schema)
                if validator is None:
                    problem = f"has no schema: unknown op ({schema} does not exist)"
                elif not validator.is_valid(message):
                    problem = f"does not match {schema}: " + describe(validator, message)
            if problem:
                invalid += 1
                if invalid <= limit:
                    print(f"{transcript}:{lineno}: {what} {problem}")
                elif invalid == limit + 1:
                    print(f"{transcript}: more invalid messages: only the first {limit} are shown (--limit)")
    return checked, invalid


def fail(msg):
    sys.stderr.write(f"validate.py: {msg}\n")
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description="Check a zcp/1 transcript against the JSON Schemas.")
    ap.add_argument("--schemas", default=os.path.dirname(os.path.abspath(__file__)),
                    help="the schema directory (default: this script's)")
    ap.add_argument("--limit", type=int, default=50,
                    help="print at most this many invalid messages (all are counted)")
    ap.add_argument("--check", action="store_true", help="only load and check the schemas")
    ap.add_argument("transcript", nargs="?", help="protocol.jsonl written by gate --validate")
    args = ap.parse_args()
    if not args.check and not args.transcript:
        ap.error("a transcript is needed (or --check)")
    validators = make_validators(load_schemas(args.schemas))
    if args.check:
        print(f"protocol: {len(validators)} schemas in {args.schemas} load and are valid")
        return 0
    checked, invalid = check(args.transcript, validators, args.limit)
    print(f"protocol: {checked} messages checked, {invalid} invalid")
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
