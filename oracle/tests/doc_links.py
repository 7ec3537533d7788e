#!/usr/bin/env python3
"""The installed documentation's links work.

    doc_links.py BUILD_DIR        cmake --install BUILD_DIR into a fresh prefix
    doc_links.py --prefix DIR     an install already made

Every relative link of every installed Markdown file (`[text](target)`,
`[text]: target`, `<a href="target">`, outside code) must name a file or
directory of the install, and its `#anchor`, when it has one and names a
Markdown file, a heading of that file (GitHub's slugs) or an explicit
`<a id>`/`<a name>`. Links with a scheme (https:, mailto:) are left alone.
Prints each broken link as `FILE:LINE: target: why`, then
`N relative links in M installed documents, K broken`; exit 0 when none is
broken, 1 else, 2 usage or when the install fails.
"""
import os
import re
import subprocess
import sys
import tempfile

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HREF = re.compile(r"<a\s[^>]*href=\"([^\"]+)\"", re.I)
EXPLICIT = re.compile(r"<a\s[^>]*(?:id|name)=\"([^\"]+)\"", re.I)
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def strip_code(line):
    """The line without its inline code spans."""
    return re.sub(r"(`+)(.+?)\1", "", line)


def lines_outside_fences(text):
    """(line number, text) of the lines outside fenced code blocks."""
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        m = re.match(r"^\s{0,3}(`{3,}|~{3,})", line)
        if m:
            if fence is None:
                fence = m.group(1)[0] * len(m.group(1))
                continue
            if m.group(1).startswith(fence):
                fence = None
                continue
        if fence is None:
            yield n, line


def slug(text):
    """GitHub's anchor for a heading."""
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link: its text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


anchor_cache = {}


def anchors(path):
    """The anchors of a Markdown file: its headings' slugs (GitHub numbers
    repeated ones -1, -2...) and explicit ids."""
    if path not in anchor_cache:
        found, seen = set(), {}
        with open(path, encoding="utf-8") as f:
            for _, line in lines_outside_fences(f.read()):
                m = HEADING.match(line)
                if m:
                    s = slug(m.group(2))
                    k = seen.get(s, 0)
                    seen[s] = k + 1
                    found.add(s if k == 0 else f"{s}-{k}")
                found.update(EXPLICIT.findall(line))
        anchor_cache[path] = found
    return anchor_cache[path]


def links(path):
    """(line number, target) of each link in a Markdown file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for n, line in lines_outside_fences(text):
        plain = strip_code(line)
        for m in INLINE.finditer(plain):
            yield n, m.group(1)
        m = REFDEF.match(plain)
        if m:
            yield n, m.group(1)
        for m in HREF.finditer(plain):
            yield n, m.group(1)


def check(prefix):
    docs = sorted(os.path.join(d, f) for d, _, fs in os.walk(prefix) for f in fs if f.endswith(".md"))
    total = broken = 0
    for doc in docs:
        shown = os.path.relpath(doc, prefix)
        for n, target in links(doc):
            if SCHEME.match(target):
                continue
            total += 1
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(doc), file_part)) if file_part else doc
            why = None
            if not os.path.exists(dest):
                why = "no such file in the install"
            elif os.path.relpath(dest, prefix).startswith(".."):
                why = "outside the install"
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                why = f"{os.path.relpath(dest, prefix)} has no heading #{anchor}"
            if why:
                broken += 1
                print(f"{shown}:{n}: {target}: {why}")
    print(f"{total} relative links in {len(docs)} installed documents, {broken} broken")
    return 1 if broken else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--prefix":
        return check(argv[2])
    if len(argv) != 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="zo-doc-links.") as prefix:
        r = subprocess.run(["cmake", "--install", argv[1], "--prefix", prefix],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode:
            print(f"doc_links: cmake --install {argv[1]} failed:\n{r.stderr}", file=sys.stderr)
            return 2
        return check(prefix)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
