#!/usr/bin/env python3
"""Builds an edition's document data (`document.toml`) from the regulation's text
and the inventory of its rules.

    python3 tools/document_data.py INVENTORY.md AMBIGUITIES.md DOCUMENT.txt > rules/2015/document.toml

Inputs:
- the inventory: Markdown tables whose rows start `| ID | pages | kind | ...`
  (pages as `5`, `5–6`, `4, 12`); the table of facts from outside the document
  (`| X-IMP | kind | fact | source |`) has no page column;
- the list of ambiguities: numbered items `N. **title**`, cited as `AMB-N`, with
  the pages their text mentions (`p. 17`, `p. 18–19`) and their section's;
- the document's text: one line per page, starting with the page number; the
  first page says how many pages the document has (`1 av 51`); pages 2 and 3
  hold the table of contents (`Heading... 14`).

The output lists every ID with its pages, every heading of the table of contents
with the pages its section covers, and the text of every page the text holds.
`bfr check` reads it (the edition names it: `document "document.toml"`) to check
each `ref`. Deterministic: the same inputs give the same bytes.
"""

import re
import sys

DASH = "[-–]"


def pages_of(text):
    """`5`, `5–6`, `4, 12`, `14-16` → sorted list of pages."""
    out = set()
    for part in re.split(r"[,;]", text):
        part = part.strip()
        m = re.fullmatch(r"(\d+)\s*(?:" + DASH + r"\s*(\d+))?", part)
        if not m:
            continue
        a = int(m.group(1))
        b = int(m.group(2) or a)
        out.update(range(a, b + 1))
    return sorted(out)


def inventory_ids(path):
    ids = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 3 or not re.fullmatch(r"[A-Z][A-Z0-9]*(-[A-Z0-9]+)*", cells[0]):
                continue
            if cells[0] == "ID":
                continue
            pages = pages_of(cells[1])
            if pages:
                ids.append((cells[0], pages, "inventory"))
            else:
                # A fact from outside the document: no pages.
                ids.append((cells[0], [], "outside"))
    return ids


def mentioned_pages(text):
    out = set()
    for m in re.finditer(r"pp?\.\s*(\d+)(?:\s*" + DASH + r"\s*(\d+))?", text):
        a = int(m.group(1))
        b = int(m.group(2) or a)
        out.update(range(a, b + 1))
    return out


def ambiguity_ids(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    whole = mentioned_pages(lines[0]) if lines else set()
    ids = []
    section_pages = set()
    current = None
    for line in lines:
        if line.startswith("## "):
            section_pages = mentioned_pages(line)
            current = None
            continue
        m = re.match(r"(\d+)\. \*\*", line)
        if m:
            current = [int(m.group(1)), set(section_pages)]
            ids.append(current)
        if current is not None:
            current[1] |= mentioned_pages(line)
    return [("AMB-%d" % n, sorted(p or whole), "ambiguities") for n, p in ids]


def document(path):
    """Page 1 is the line that ends `1 av N`; each later page is a line that
    starts with the next page number."""
    pages = {}
    count = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if count is None:
                m = re.search(r"\b1 av (\d+)$", line)
                if m:
                    count = int(m.group(1))
                    pages[1] = line
                continue
            m = re.match(r"(\d+) (.*)", line)
            if m and int(m.group(1)) == max(pages) + 1:
                pages[int(m.group(1))] = m.group(2)
    if count is None:
        sys.exit("the first page does not say how many pages the document has")
    return count, pages


def contents(pages, count):
    """The table of contents: (heading, first page, last page)."""
    toc = " ".join(pages.get(n, "") for n in (2, 3))
    entries = [
        (h.strip(), int(p))
        for h, p in re.findall(r"(.+?)\s*\.\.\.\s*(\d+)\s*", toc)
    ]
    out = []
    for i, (heading, first) in enumerate(entries):
        # A chapter (written in capitals) runs to the next chapter; a section to
        # the page where the next entry starts.
        chapter = heading == heading.upper()
        last = count
        for h, p in entries[i + 1 :]:
            if heading in PARENTS:
                if h == PARENTS[heading]:
                    last = max(first, p)
                    break
            elif not chapter or h == h.upper():
                last = max(first, p)
                break
        out.append((heading, first, last))
    return out


def quote(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    inventory, ambiguities, text = sys.argv[1:]
    count, pages = document(text)
    ids = inventory_ids(inventory) + ambiguity_ids(ambiguities) + EDITION_IDS
    out = [
        "# The regulation document the 2015 edition cites, as data for `bfr check`:",
        "# every rule ID with its pages, the table of contents, and the text of the",
        "# pages the text holds. Generated by tools/document_data.py; do not edit.",
        "",
        "pages = %d" % count,
        "",
    ]
    for id_, ps, origin in ids:
        out += ["[[id]]", "id = " + quote(id_), "pages = %s" % ps, "origin = " + quote(origin), ""]
    for heading, first, last in contents(pages, count):
        out += ["[[section]]", "title = " + quote(heading), "first = %d" % first, "last = %d" % last, ""]
    for n in sorted(pages):
        out += ["[[page]]", "number = %d" % n, "text = " + quote(pages[n]), ""]
    sys.stdout.write("\n".join(out))


# The text's table of contents is flat; in the document these headings hold the
# ones after them, up to the heading named (the days of "Dag-för-dag", …).
PARENTS = {
    "SM Lag Veteran": "CHAIRMAN S CUP",
    "Dag-för-dag": "Val av motståndare CC",
    "Seating Rights": "Särskiljning",
    "Särskiljning": "Avhopp i slutskedet av CC/BC",
}

# IDs the edition itself gives to text the inventory has no ID for.
EDITION_IDS = [
    ("P4-DISCLAIMER", [4], "edition"),
    ("P4-CHANGES", [4], "edition"),
    # p.5 "Mästarpoäng": which master-point rules apply.
    ("P5-MP", [5], "edition"),
]

if __name__ == "__main__":
    main()
