#!/usr/bin/env python3
"""step_docs.py README ZONEORACLE: the Steps table of the case language's
docs (cases/README.md) against the step table (`zoneoracle steps --format
json`, from oracle/src/case/steps.def): a row per step kind and no other,
each listing exactly its kind's options, the required ones in bold (a kind
whose object is card:/ref: writes **`card`/`ref`**; reveal, whose object
may be top_of: instead, writes all three in bold; cant, on card: or
draw:, both; attach, to: a permanent or to_player:, both). Exit 1 naming each
difference, 0 when the docs follow the table."""
import json, re, subprocess, sys


def doc_rows(path):
    """{kind: (options, bold options)} of the table under '## Steps'."""
    rows, inside = {}, False
    for line in open(path, encoding="utf-8"):
        if line.startswith("## "):
            inside = line.strip() == "## Steps"
            continue
        m = re.match(r"\| `([a-z_]+)` \| (.*?) \| ", line) if inside else None
        if not m:
            continue
        cell = re.sub(r"\([^()]*(\([^()]*\)[^()]*)*\)", "", m.group(2))  # explanations
        opts, bold = set(), set()
        for part in re.finditer(r"(\*\*)?((?:`[a-z_]+`/?)+)(\*\*)?", cell):
            words = re.findall(r"`([a-z_]+)`", part.group(2))
            opts.update(words)
            if part.group(1):
                bold.update(words)
        if cell.strip().startswith("none"):
            opts, bold = set(), set()
        rows[m.group(1)] = (opts, bold)
    return rows


def main():
    readme, exe = sys.argv[1], sys.argv[2]
    table = json.loads(subprocess.run([exe, "steps", "--format", "json"], check=True,
                                      capture_output=True, text=True).stdout)
    rows, bad = doc_rows(readme), []
    for k in table["steps"]:
        name = k["name"]
        if name not in rows:
            bad.append("step %s has no row in the Steps table" % name)
            continue
        opts = {o["key"] for o in k["options"]}
        req = {o["key"] for o in k["options"] if o["required"]}
        if any(o["object"] for o in k["options"]):
            req |= {"card", "ref"}
        if name == "reveal":
            req |= {"card", "ref", "top_of"}
        if name == "cant":  # card: or draw:, one of them
            req |= {"card", "draw"}
        if name == "attach":  # to: or to_player:, one of them
            req |= {"to", "to_player"}
        have, bold = rows.pop(name)
        if have != opts:
            bad.append("%s: the docs list %s, the table %s" % (name, sorted(have), sorted(opts)))
        if bold != req:
            bad.append("%s: the docs mark %s required, the table %s" % (name, sorted(bold), sorted(req)))
    for name in rows:
        bad.append("the Steps table has a row for %s, which is no step kind" % name)
    for b in bad:
        print("step_docs: %s: %s" % (readme, b))
    if not bad:
        print("step_docs: the Steps table follows the step table (%d kinds)" % len(table["steps"]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
