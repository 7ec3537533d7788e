#!/usr/bin/env python3
"""Regenerate the mutated malformed files and their expected messages.

    python3 oracle/tests/malformed/make-mutants.py --zoneoracle build/bin/zoneoracle

Takes real cases from cases/ and applies one mutation to each copy (a
misspelt key, a bad zone, a duplicate key, wrong indentation, a truncated
file, invalid UTF-8, a tab, a huge number, a negative position, ...), and
does the same to the user rule set oracle/tests/ruleset-file/my-game.yaml for
malformed/rulesets/. Each mutant is loaded with `zoneoracle check` and its
message recorded in expected.tsv ("name<TAB>line:col: message", read by
oracle/tests/test_loader.c). The message is checked before it is recorded:
it must be at the line (and, where the mutation fixes it, the column) the
mutation touched and say what the mutation broke (a fragment per mutation),
so a mutant whose error lands elsewhere is reported, not recorded.

Hand-written files (names not starting with "m-") and their lines in
expected.tsv are kept as they are. Files named "m-*.yaml" are generated:
the script deletes the old ones and writes the new ones, so running it again
gives the same files. Exits 1 when a mutant's message is not where it should
be (after writing the rest), 2 on a usage error.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
CASES = os.path.join(ROOT, "cases")
MY_GAME = os.path.join(ROOT, "oracle", "tests", "ruleset-file", "my-game.yaml")
RS_DIR = os.path.join(HERE, "rulesets")
PER_MUTATION = 12  # real cases per case mutation


class Mutant:
    """A mutated text, where its error must be (1-based line; column or
    None) and a fragment its message must hold."""

    def __init__(self, data, line, col, fragment):
        self.data, self.line, self.col, self.fragment = data, line, col, fragment


def lines_of(text):
    return text.split("\n")


def find_line(ls, pattern, start=0):
    rx = re.compile(pattern)
    for i in range(start, len(ls)):
        if rx.search(ls[i]):
            return i
    return None


def join(ls):
    return "\n".join(ls).encode()


def first_card(ls):
    """Index of the first card line `  h: {owner: ...}` (flow map)."""
    i = find_line(ls, r"^cards:\s*$")
    if i is None or i + 1 >= len(ls):
        return None
    if re.match(r"^  [a-z0-9_-]+: \{owner: [a-z]+, zone: [a-z._0-9]+[,}]", ls[i + 1]):
        return i + 1
    return None


def col_of(line, sub):
    """1-based character column of sub in line."""
    k = line.index(sub)
    return len(line[:k]) + 1


# ---- case mutations: text -> Mutant or None (not applicable) -----------

def m_unknown_top_key(text):
    ls = lines_of(text)
    i = find_line(ls, r"^title:")
    if i is None:
        return None
    ls[i] = "titel:" + ls[i][len("title:"):]
    return Mutant(join(ls), i + 1, 1, "unknown key 'titel' in a case (did you mean 'title'?")


def m_unknown_card_key(text):
    ls = lines_of(text)
    i = first_card(ls)
    if i is None:
        return None
    ls[i] = ls[i].replace("{owner:", "{colour: red, owner:", 1)
    return Mutant(join(ls), i + 1, col_of(ls[i], "colour"), "unknown key 'colour' in a card")


def m_bad_zone(text):
    ls = lines_of(text)
    i = first_card(ls)
    if i is None:
        return None
    m = re.search(r"zone: ([a-z._0-9]+)", ls[i])
    z = m.group(1)
    if z == "outside":
        return None
    bad = re.sub(r"^([a-z]+\.)?([a-z_]+)", lambda mm: (mm.group(1) or "") + mm.group(2) + "x", z)
    ls[i] = ls[i].replace("zone: " + z, "zone: " + bad, 1)
    return Mutant(join(ls), i + 1, col_of(ls[i], "zone: " + bad) + 6, "unknown zone '")


def m_duplicate_key(text):
    ls = lines_of(text)
    i = find_line(ls, r"^title:")
    if i is None:
        return None
    ls.insert(i + 1, ls[i])
    return Mutant(join(ls), i + 2, 1, "duplicate key 'title' (first at line %d)" % (i + 1))


def m_duplicate_card_key(text):
    ls = lines_of(text)
    i = first_card(ls)
    if i is None:
        return None
    m = re.search(r"owner: ([a-z]+)", ls[i])
    if not ls[i].endswith("}"):
        return None
    ls[i] = ls[i][:-1] + ", owner: " + m.group(1) + "}"
    k = ls[i].rindex("owner:")
    return Mutant(join(ls), i + 1, k + 1, "duplicate key 'owner' (first at line %d)" % (i + 1))


def m_wrong_indentation(text):
    ls = lines_of(text)
    i = find_line(ls, r"^players:")
    if i is None:
        return None
    ls[i] = "   " + ls[i]
    return Mutant(join(ls), None, None, "YAML syntax: ")


def m_truncated(text):
    ls = lines_of(text)
    i = first_card(ls)
    if i is None:
        return None
    cut = ls[i].index(",")  # inside the card's flow map
    data = join(ls[:i] + [ls[i][:cut]])
    return Mutant(data, None, None, "YAML syntax: did not find expected ',' or '}'")


def m_invalid_utf8(text):
    ls = lines_of(text)
    i = find_line(ls, r"^title: ")
    if i is None:
        return None
    b = [l.encode() for l in ls]
    k = len("title: ")
    b[i] = b[i][:k + 2] + b"\xff" + b[i][k + 2:]
    col = len(ls[i][:k + 2].encode().decode()) + 1
    if not ls[i][k:k + 2].isascii():
        return None
    return Mutant(b"\n".join(b), i + 1, col, "not UTF-8: byte 0xFF is a byte that never starts a character")


def m_cut_utf8(text):
    """A two-byte character cut to its lead byte."""
    ls = lines_of(text)
    i = find_line(ls, r"^title: ")
    if i is None:
        return None
    b = [l.encode() for l in ls]
    b[i] = b[i] + b" \xc3"
    return Mutant(b"\n".join(b), i + 1, len(ls[i]) + 2, "not UTF-8: byte 0xC3 is a character cut short")


def m_nul(text):
    ls = lines_of(text)
    i = find_line(ls, r"^title: ")
    if i is None:
        return None
    b = [l.encode() for l in ls]
    b[i] = b[i][:7] + b"\x00" + b[i][7:]
    return Mutant(b"\n".join(b), i + 1, 8, "a NUL byte (U+0000)")


def m_bom_inside(text):
    ls = lines_of(text)
    i = find_line(ls, r"^title: ")
    if i is None:
        return None
    b = [l.encode() for l in ls]
    b[i] = b[i][:7] + b"\xef\xbb\xbf" + b[i][7:]
    return Mutant(b"\n".join(b), i + 1, 8, "a byte order mark (U+FEFF) after the start of the file")


def m_control(text):
    ls = lines_of(text)
    i = find_line(ls, r"^title: ")
    if i is None:
        return None
    b = [l.encode() for l in ls]
    b[i] = b[i] + b"\x07"
    return Mutant(b"\n".join(b), i + 1, len(ls[i]) + 1, "control character U+0007 is not allowed")


def m_tab(text):
    ls = lines_of(text)
    i = find_line(ls, r"^  - [a-z_]+:")
    if i is None:
        return None
    ls[i] = "\t" + ls[i][2:]
    return Mutant(join(ls), i + 1, 1, "YAML syntax: found character that cannot start any token")


def m_huge_position(text):
    ls = lines_of(text)
    i = first_card(ls)
    if i is None or "position:" in ls[i] or not ls[i].endswith("}"):
        return None
    ls[i] = ls[i][:-1] + ", position: 99999999999999999999}"
    return Mutant(join(ls), i + 1, col_of(ls[i], "99999"), "expected a whole number 0..10000 for position")


def m_negative_position(text):
    ls = lines_of(text)
    i = first_card(ls)
    if i is None or "position:" in ls[i] or not ls[i].endswith("}"):
        return None
    ls[i] = ls[i][:-1] + ", position: -1}"
    return Mutant(join(ls), i + 1, col_of(ls[i], "-1}"), "expected a whole number 0..10000 for position")


def m_wrong_type_players(text):
    ls = lines_of(text)
    i = find_line(ls, r"^players: \[")
    if i is None:
        return None
    ls[i] = "players: alice"
    return Mutant(join(ls), i + 1, 10, "expected a list for players")


def m_wrong_type_owner(text):
    ls = lines_of(text)
    i = first_card(ls)
    if i is None:
        return None
    m = re.search(r"owner: ([a-z]+)", ls[i])
    ls[i] = ls[i].replace("owner: " + m.group(1), "owner: [" + m.group(1) + "]", 1)
    return Mutant(join(ls), i + 1, col_of(ls[i], "owner: [") + 7, "expected a single value for owner")


def m_unknown_step(text):
    ls = lines_of(text)
    i = find_line(ls, r"^  - move: ")
    if i is None:
        return None
    ls[i] = ls[i].replace("- move:", "- mvoe:", 1)
    return Mutant(join(ls), i + 1, 5, "unknown step 'mvoe' (did you mean 'move'?")


def m_unknown_handle(text):
    ls = lines_of(text)
    i = find_line(ls, r"^  - move: \{card: [a-z0-9_]+")
    if i is None:
        return None
    m = re.search(r"card: ([a-z0-9_]+)", ls[i])
    ls[i] = ls[i].replace("card: " + m.group(1), "card: " + m.group(1) + "_zz", 1)
    return Mutant(join(ls), i + 1, col_of(ls[i], m.group(1) + "_zz"),
                  "unknown card '%s_zz'" % m.group(1))


def m_unknown_rule(text):
    ls = lines_of(text)
    i = find_line(ls, r'^rules: \["')
    if i is None:
        return None
    ls[i] = re.sub(r'\["[^"]*"', '["X 9.9"', ls[i], count=1)
    return Mutant(join(ls), i + 1, 9, "rule 'X 9.9' is not in the rule list of")


def m_unknown_ruleset(text):
    ls = lines_of(text)
    i = find_line(ls, r"^rulesets: \[")
    if i is None:
        return None
    ls[i] = re.sub(r"\[[a-z0-9-]+", "[mtg-2010", ls[i], count=1)
    return Mutant(join(ls), i + 1, 12, "unknown rule set 'mtg-2010'")


def m_bad_outcome(text):
    ls = lines_of(text)
    i = find_line(ls, r"outcome: [a-z_]+")
    if i is None:
        return None
    m = re.search(r"outcome: ([a-z_]+)", ls[i])
    ls[i] = ls[i].replace("outcome: " + m.group(1), "outcome: " + m.group(1) + "d", 1)
    return Mutant(join(ls), i + 1, col_of(ls[i], "outcome: ") + 9,
                  "unknown outcome '%sd'" % m.group(1))


def m_top_outcome(text):
    ls = lines_of(text)
    i = find_line(ls, r"^expect:\s*$")
    if i is None:
        return None
    ls.insert(i + 1, "  outcome: moved")
    return Mutant(join(ls), i + 2, 3, "outcome: is a step's result and the top-level expect: has no step")


def m_under_and_zone(text):
    ls = lines_of(text)
    i = find_line(ls, r"^  [a-z0-9_]+: \{owner: .*under: [a-z0-9_]+")
    if i is None or "zone:" in ls[i]:
        return None
    ls[i] = ls[i].replace("under:", "zone: hand, under:", 1)
    return Mutant(join(ls), i + 1, col_of(ls[i], "zone: hand") + 6,
                  "a sub-card is in its top-card's zone (FaB 3.0.14), so zone: must say")


def m_under_and_face(text):
    ls = lines_of(text)
    i = find_line(ls, r"^  [a-z0-9_]+: \{owner: .*under: [a-z0-9_]+")
    if i is None or "face:" in ls[i]:
        return None
    ls[i] = ls[i].replace("under:", "face: down, under:", 1)
    return Mutant(join(ls), i + 1, col_of(ls[i], "face: down"), "a sub-card has no face of its own")


def m_position_unordered(text):
    ls = lines_of(text)
    i = find_line(ls, r"^  [a-z0-9_]+: \{owner: [a-z]+, zone: ([a-z]+\.)?(hand|battlefield|exile|in_play)[,}]")
    if i is None or "position" in ls[i] or not ls[i].endswith("}"):
        return None
    ls[i] = ls[i][:-1] + ", position: 0}"
    return Mutant(join(ls), i + 1, col_of(ls[i], "position: 0") + 10, "position: is for ordered zones")


def m_visibility_per_zone(text):
    ls = lines_of(text)
    j = find_line(ls, r"^rulesets: \[mtg")
    i = first_card(ls)
    if i is None or j is None or "visibility" in ls[i] or not ls[i].endswith("}"):
        return None
    ls[i] = ls[i][:-1] + ", visibility: public}"
    return Mutant(join(ls), i + 1, col_of(ls[i], "visibility: public") + 12,
                  "but here a zone decides the visibility of what it holds")


def m_empty_id(text):
    ls = lines_of(text)
    i = find_line(ls, r"^id: ")
    if i is None:
        return None
    ls[i] = 'id: ""'
    return Mutant(join(ls), i + 1, 5, "id must not be empty")


def m_alias(text):
    ls = lines_of(text)
    i = find_line(ls, r"^title: ")
    if i is None or ls[i].startswith("title: &") or ls[i].startswith("title: \"") or ls[i].startswith("title: '"):
        return None
    ls[i] = "title: &t " + ls[i][len("title: "):]
    return Mutant(join(ls), i + 1, 8, "anchors (&name) are not allowed")


def m_zone_index(text):
    ls = lines_of(text)
    i = find_line(ls, r"zone: (alice|bob)\.[a-z_]+[,}]")
    if i is None:
        return None
    m = re.search(r"zone: ((alice|bob)\.[a-z_]+)", ls[i])
    ls[i] = ls[i].replace("zone: " + m.group(1), "zone: " + m.group(1) + ".99", 1)
    return Mutant(join(ls), i + 1, col_of(ls[i], m.group(1) + ".99"), "zone index '99' must be 1..16")


CASE_MUTATIONS = [
    ("unknown-top-key", m_unknown_top_key),
    ("unknown-card-key", m_unknown_card_key),
    ("bad-zone", m_bad_zone),
    ("duplicate-key", m_duplicate_key),
    ("duplicate-card-key", m_duplicate_card_key),
    ("wrong-indentation", m_wrong_indentation),
    ("truncated", m_truncated),
    ("invalid-utf8", m_invalid_utf8),
    ("cut-utf8", m_cut_utf8),
    ("nul", m_nul),
    ("bom-inside", m_bom_inside),
    ("control-char", m_control),
    ("tab", m_tab),
    ("huge-position", m_huge_position),
    ("negative-position", m_negative_position),
    ("players-not-list", m_wrong_type_players),
    ("owner-not-value", m_wrong_type_owner),
    ("unknown-step", m_unknown_step),
    ("unknown-handle", m_unknown_handle),
    ("unknown-rule", m_unknown_rule),
    ("unknown-ruleset", m_unknown_ruleset),
    ("bad-outcome", m_bad_outcome),
    ("top-level-outcome", m_top_outcome),
    ("under-and-zone", m_under_and_zone),
    ("under-and-face", m_under_and_face),
    ("position-unordered", m_position_unordered),
    ("visibility-per-zone", m_visibility_per_zone),
    ("empty-id", m_empty_id),
    ("alias", m_alias),
    ("zone-index", m_zone_index),
]


# ---- rule set mutations of my-game.yaml ---------------------------------

def rs_replace(old, new, line_pat, col_sub, fragment, count=1):
    """A mutation replacing old by new; the error at the line matching
    line_pat (after the change), at col_sub's column (None: any)."""
    def f(text):
        if old not in text:
            return None
        t = text.replace(old, new, count)
        ls = lines_of(t)
        i = find_line(ls, line_pat)
        col = col_of(ls[i], col_sub) if col_sub else None
        return Mutant(t.encode(), i + 1, col, fragment)
    return f


def seed_rule_out_of_scope(text):
    """seed_rules: naming a rule listed as out_of_scope."""
    t = text.replace('  - {id: "G 3", seed: true, text: "A card that changes zones is a new object."}',
                     '  - {id: "G 3", seed: true, text: "A card that changes zones is a new object."}\n'
                     '  - {id: "G 4", text: "Combat damage.", out_of_scope: "combat, not zones"}', 1)
    t = t.replace("switches:\n", 'seed_rules: ["G 3", "G 4"]\nswitches:\n', 1)
    ls = lines_of(t)
    i = find_line(ls, r"^seed_rules")
    return Mutant(t.encode(), i + 1, col_of(ls[i], '"G 4"'), "seed rule 'G 4' is out_of_scope")


def rs_bytes(after, insert, fragment, at_end=False):
    """Insert raw bytes into the line that starts with `after`."""
    def f(text):
        ls = lines_of(text)
        i = find_line(ls, "^" + re.escape(after))
        b = [l.encode() for l in ls]
        if at_end:
            b[i] = b[i] + insert
            col = len(ls[i]) + 1
        else:
            k = len(after)
            b[i] = b[i][:k] + insert + b[i][k:]
            col = len(after) + 1
        return Mutant(b"\n".join(b), i + 1, col, fragment)
    return f


def many_words(text):
    words = ", ".join("kind_%d" % i for i in range(30))
    t = text.replace("    controller: {value: true, rule: \"G 1\"}\n",
                     "    controller: {value: true, rule: \"G 1\"}\n"
                     "    holds: {value: [equip], rule: \"G 1\"}\n"
                     "    equip: {value: [" + words + "], rule: \"G 1\"}\n", 1)
    ls = lines_of(t)
    i = find_line(ls, r"equip: \{value")
    return Mutant(t.encode(), i + 1, col_of(ls[i], "kind_25"), "type word 'kind_25': a rule set may use at most 25")


RULESET_MUTATIONS = [
    ("switch-value-of-other-switch",
     rs_replace("new_object: {value: every_move", "new_object: {value: owner_graveyard",
                r"new_object:", "owner_graveyard", "is not a value of switch new_object, but of another switch")),
    ("switch-value-none-not-allowed",
     rs_replace("wrong_owner: {value: redirect", "wrong_owner: {value: none",
                r"wrong_owner:", "none,", "'none' is not a value of switch wrong_owner: leave the switch out")),
    ("unknown-switch-value",
     rs_replace("visibility: {value: per_zone", "visibility: {value: per_zoen",
                r"^  visibility:", "per_zoen", "unknown value 'per_zoen' for switch visibility (did you mean 'per_zone'?")),
    ("unknown-switch",
     rs_replace("  new_object:", "  new_objects:", r"new_objects:", "new_objects",
                "unknown key 'new_objects' in switches (did you mean 'new_object'?")),
    ("unknown-game", rs_replace("game: mtg", "game: magic", r"^game:", "magic", "unknown game 'magic'")),
    ("misspelt-game", rs_replace("game: mtg", "game: fba", r"^game:", "fba", "unknown game 'fba' (did you mean 'fab'?")),
    ("empty-id", rs_replace("id: my-game", 'id: ""', r"^id:", '""', "id must not be empty")),
    ("missing-title", rs_replace('title: "A two-zone test game"\n', "", r"^id:", None, "missing 'title'")),
    ("duplicate-rule-id",
     rs_replace('  - {id: "G 3"', '  - {id: "G 2"', r'^  - \{id: "G 2", seed: true, text: "A card that', '"G 2", seed: true, text: "A card that',
                "rule 'G 2' is listed twice (first at line")),
    ("empty-rule-id", rs_replace('  - {id: "G 3"', '  - {id: ""', r'^  - \{id: ""', '""', "a rule id must not be empty")),
    ("rule-without-text",
     rs_replace('  - {id: "G 3", seed: true, text: "A card that changes zones is a new object."}',
                '  - {id: "G 3", seed: true}', r'^  - \{id: "G 3"', '{id: "G 3"', "missing 'text' in rule 'G 3'")),
    ("seed-out-of-scope",
     rs_replace('  - {id: "G 3", seed: true, text: "A card that changes zones is a new object."}',
                '  - {id: "G 3", seed: true, text: "A card that changes zones is a new object.", out_of_scope: "combat"}',
                r'^  - \{id: "G 3"', '"combat"', "rule 'G 3' is a seed rule and out_of_scope")),
    ("empty-out-of-scope",
     rs_replace('  - {id: "G 3", seed: true, text: "A card that changes zones is a new object."}',
                '  - {id: "G 3", text: "A card that changes zones is a new object.", out_of_scope: ""}',
                r'^  - \{id: "G 3"', '""', "out_of_scope must say why")),
    ("seed-rules-out-of-scope", seed_rule_out_of_scope),
    ("gap-and-seed",
     rs_replace('  - {id: "G 3", seed: true, text: "A card that changes zones is a new object."}',
                '  - {id: "G 3", seed: true, text: "A card that changes zones is a new object.", language_gap: "no casting"}',
                r'^  - \{id: "G 3"', '"no casting"', "rule 'G 3' has a language_gap: it can't also be a seed rule")),
    ("empty-capacity",
     rs_replace("    controller: {value: true, rule: \"G 1\"}\n",
                "    controller: {value: true, rule: \"G 1\"}\n    capacity: {value: , rule: \"G 1\"}\n",
                r"capacity:", ", rule", "expected a whole number 0..64 for zone table, capacity")),
    ("negative-capacity",
     rs_replace("    controller: {value: true, rule: \"G 1\"}\n",
                "    controller: {value: true, rule: \"G 1\"}\n    capacity: {value: -1, rule: \"G 1\"}\n",
                r"capacity:", "-1", "expected a whole number 0..64 for zone table, capacity")),
    ("capacity-65",
     rs_replace("    controller: {value: true, rule: \"G 1\"}\n",
                "    controller: {value: true, rule: \"G 1\"}\n    capacity: {value: 65, rule: \"G 1\"}\n",
                r"capacity:", "65", "expected a whole number 0..64 for zone table, capacity")),
    ("quoted-capacity",
     rs_replace("    controller: {value: true, rule: \"G 1\"}\n",
                "    controller: {value: true, rule: \"G 1\"}\n    capacity: {value: \"3\", rule: \"G 1\"}\n",
                r"capacity:", "\"3\"", "expected a whole number 0..64 for zone table, capacity")),
    ("unknown-zone-attribute",
     rs_replace("    ordered: {value: true", "    ordred: {value: true", r"ordred:", "ordred",
                "unknown key 'ordred' in a zone (did you mean 'ordered'?")),
    ("unknown-role", rs_replace("role: library", "role: libary", r"role: libary", "libary",
                                "unknown role 'libary' (did you mean 'library'?)")),
    ("unknown-visibility",
     rs_replace("visibility: {value: hidden", "visibility: {value: secret", r"value: secret", "secret",
                "expected public, hidden or private for zone deck, visibility")),
    ("word-for-boolean",
     rs_replace("ordered: {value: true", "ordered: {value: maybe", r"value: maybe", "maybe",
                "expected true or false for zone deck, ordered")),
    ("unlisted-rule", rs_replace('ordered: {value: true, rule: "G 1"}', 'ordered: {value: true, rule: "G 9"}',
                                 r'rule: "G 9"', '"G 9"', "rule 'G 9' is cited but not listed under rules:")),
    ("seven-rules",
     rs_replace('ordered: {value: true, rule: "G 1"}',
                'ordered: {value: true, rule: ["G 1", "G 2", "G 3", "G 1", "G 2", "G 3", "G 1"]}',
                r'rule: \["G 1"', '["G 1"', "at most six rules per citation")),
    ("unknown-holds",
     rs_replace("    controller: {value: true, rule: \"G 1\"}\n",
                "    controller: {value: true, rule: \"G 1\"}\n    holds: {value: [spells], rule: \"G 1\"}\n",
                r"holds:", "spells", "unknown holds value 'spells'")),
    ("capital-type-word",
     rs_replace("    controller: {value: true, rule: \"G 1\"}\n",
                "    controller: {value: true, rule: \"G 1\"}\n    holds: {value: [equip], rule: \"G 1\"}\n"
                "    equip: {value: [Sword], rule: \"G 1\"}\n",
                r"equip:", "Sword", "type words are lower case with _ for spaces (got 'Sword')")),
    ("too-many-own-type-words", many_words),
    ("extends-unknown", rs_replace("game: mtg\n", "extends: mtg-2012\n", r"^extends:", "mtg-2012",
                                   "extends unknown rule set 'mtg-2012'")),
    ("seed-rules-unlisted", rs_replace("switches:\n", "seed_rules: [\"G 7\"]\nswitches:\n", r"^seed_rules",
                                       '"G 7"', "seed rule 'G 7' is not listed under rules:")),
    ("drop-rules-unknown", rs_replace("switches:\n", "drop_rules: [\"G 7\"]\nswitches:\n", r"^drop_rules",
                                      '"G 7"', "drop_rules names 'G 7'")),
    ("zone-name-with-dot", rs_replace("  table:\n", "  side.table:\n", r"side\.table", "side.table",
                                      "zone name 'side.table' must be a short word without '.'")),
    ("unknown-top-key", rs_replace("switches:\n", "switchs:\n", r"^switchs", "switchs",
                                   "unknown key 'switchs' in a rule set (did you mean 'switches'?")),
    ("duplicate-key", rs_replace("game: mtg\n", "game: mtg\ngame: fab\n", r"^game: fab", "game: fab",
                                 "duplicate key 'game' (first at line")),
    ("invalid-utf8", rs_bytes('title: "A two', b"\xff", "not UTF-8: byte 0xFF")),
    ("nul", rs_bytes('title: "A two', b"\x00", "a NUL byte (U+0000)")),
    ("bom-inside", rs_bytes('title: "A two', b"\xef\xbb\xbf", "a byte order mark (U+FEFF) after the start")),
    ("control-char", rs_bytes('rules:', b"\x1b", "control character U+001B is not allowed", at_end=True)),
    ("tab-indent", rs_replace("    role: library", "\trole: library", r"^\trole", "\t",
                              "YAML syntax: found character that cannot start any token")),
    ("missing-rule-of-citation",
     rs_replace('ordered: {value: true, rule: "G 1"}', 'ordered: {value: true}', r"ordered: \{value: true\}",
                "{value", "missing 'rule' in zone deck, ordered")),
]


# ---- running the loader ---------------------------------------------------

def message_of(binary, path, ruleset, empty_dir):
    """(line, col, message) of the loader's first error on path."""
    if ruleset:
        cmd = [binary, "check", "--ruleset-file", path, empty_dir]
    else:
        cmd = [binary, "check", path]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = p.stderr.decode("utf-8", "replace").split("\n")[0]
    m = re.match(r"^(.*?):(\d+):(\d+): error: (.*)$", err)
    if p.returncode != 3 or not m or m.group(1) != path:
        return None, "exit %d: %s" % (p.returncode, err or p.stdout.decode("utf-8", "replace"))
    return (int(m.group(2)), int(m.group(3)), m.group(4)), None


def write_set(binary, folder, mutants, ruleset, problems):
    """Write folder/m-*.yaml and their lines of folder/expected.tsv."""
    os.makedirs(folder, exist_ok=True)
    for old in glob.glob(os.path.join(folder, "m-*.yaml")):
        os.unlink(old)
    tsv = os.path.join(folder, "expected.tsv")
    kept = []
    if os.path.exists(tsv):
        with open(tsv, encoding="utf-8") as f:
            kept = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("m-")]
    empty = tempfile.mkdtemp(prefix="make-mutants-")
    lines = []
    for name, mu in mutants:
        path = os.path.join(folder, name)
        with open(path, "wb") as f:
            f.write(mu.data)
        got, why = message_of(binary, path, ruleset, empty)
        if got is None:
            problems.append("%s: not refused as expected: %s" % (name, why))
            os.unlink(path)
            continue
        line, col, msg = got
        ok = mu.fragment in msg and (mu.line is None or line == mu.line) and (mu.col is None or col == mu.col)
        if not ok:
            problems.append("%s: %d:%d: %s (wanted %s:%s and '%s')" % (name, line, col, msg, mu.line,
                                                                      mu.col, mu.fragment))
            os.unlink(path)
            continue
        lines.append("%s\t%d:%d: %s" % (name, line, col, msg))
    os.rmdir(empty)
    with open(tsv, "w", encoding="utf-8") as f:
        for l in kept + sorted(lines):
            f.write(l + "\n")
    return len(lines)


def slug(path):
    rel = os.path.relpath(path, CASES)[:-len(".yaml")]
    return re.sub(r"[^a-z0-9.-]+", "-", rel.lower())[:70]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--zoneoracle", required=True, help="the zoneoracle binary that records messages")
    args = ap.parse_args()
    if not os.access(args.zoneoracle, os.X_OK):
        print("make-mutants.py: %s is not an executable" % args.zoneoracle, file=sys.stderr)
        return 2
    cases = sorted(glob.glob(os.path.join(CASES, "**", "*.yaml"), recursive=True))
    mutants = []
    for kind, fn in CASE_MUTATIONS:
        applicable = []
        for path in cases:
            with open(path, encoding="utf-8") as f:
                mu = fn(f.read())
            if mu is not None:
                applicable.append((path, mu))
        # spread over the suite: every k-th applicable case
        step = max(1, len(applicable) // PER_MUTATION)
        for path, mu in applicable[::step][:PER_MUTATION]:
            mutants.append(("m-%s-%s.yaml" % (kind, slug(path)), mu))
    problems = []
    n = write_set(args.zoneoracle, HERE, mutants, False, problems)
    with open(MY_GAME, encoding="utf-8") as f:
        base = f.read()
    rs_mutants = []
    for kind, fn in RULESET_MUTATIONS:
        mu = fn(base)
        if mu is None:
            problems.append("rule set mutation %s does not apply to my-game.yaml" % kind)
            continue
        rs_mutants.append(("m-%s.yaml" % kind, mu))
    nrs = write_set(args.zoneoracle, RS_DIR, rs_mutants, True, problems)
    for p in problems:
        print("PROBLEM: " + p)
    print("%d case mutants, %d rule set mutants written; %d problems" % (n, nrs, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
