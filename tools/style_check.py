#!/usr/bin/env python3
"""The house's two size rules (issue 33; the architecture review of 2026-12-05, rec. 5): no function over 80 lines and no source file over 500,
unless listed in tools/style-exceptions.txt with a reason.

Usage: tools/style_check.py [--list]

Functions are brace-matched from a Swift `func`, `init`, `deinit`, `subscript` or computed `var`/`let` with a
body, and from a C function's column-0 signature; a function's lines run from its declaration to its closing
brace. Comments and string literals are blanked before braces are counted. Swift and C under Sources/.

Fails when a function or file is over its limit and not listed, and when a listed one is no longer over it (or
no longer exists), so the list only ever holds what is still to be split. `--list` prints every function and
file over its limit, listed or not, longest first.
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
EXCEPTIONS = os.path.join(ROOT, "tools", "style-exceptions.txt")
MAX_FUNCTION = 80
MAX_FILE = 500

SWIFT_DECL = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|private|fileprivate|internal|package|open|static|class|final|override|mutating|nonmutating|"
    r"nonisolated|convenience|required|lazy|dynamic|indirect|consuming|borrowing)(?:\([^)]*\))?\s+)*"
    r"(?:func\s+([^\s(<]+)|(init)[?!]?\s*[(<]|(deinit)\b|(subscript)\s*[(<]|(?:var|let)\s+(\w+)\s*:[^=]*\{\s*$)")
C_DECL = re.compile(r"^(?!static\s+const\b)(?:[A-Za-z_][\w\s\*]*?[\s\*])?([A-Za-z_]\w*)\s*\([^;]*$")
TYPE_DECL = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|private|fileprivate|internal|package|final|indirect)\s+)*"
                       r"(?:struct|class|enum|extension|actor|protocol)\s+([\w.]+)")


def blank(text, swift):
    """Comments and string literals replaced by spaces (newlines kept), so braces inside them do not count."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif swift and text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c == '"' or (not swift and c == "'"):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i)); i = j
        else:
            out.append(c); i += 1
    return "".join(out)


def functions(path):
    """(name, first line, last line) of each function in the file, 1-based and inclusive."""
    swift = path.endswith(".swift")
    lines = blank(open(path, encoding="utf-8").read(), swift).split("\n")
    found, types = [], []
    depth_at_type = []  # the brace depth at which each open type began
    depth = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        match = SWIFT_DECL.match(line) if swift else (C_DECL.match(line) if depth == 0 else None)
        if swift:
            t = TYPE_DECL.match(line)
            if t and "{" in line:
                types.append(t.group(1)); depth_at_type.append(depth)
        if match:
            name = next((g for g in match.groups() if g), "?")
            # The body opens on this line or a following one; a declaration with no body (a protocol
            # requirement, a C prototype) ends at ";" or at a line of another declaration.
            j, opened, d = i, False, 0
            while j < len(lines):
                for ch in lines[j]:
                    if ch == "{":
                        d += 1; opened = True
                    elif ch == "}":
                        d -= 1
                if opened and d <= 0:
                    break
                if not opened and (";" in lines[j] or (j > i and (SWIFT_DECL.match(lines[j]) if swift else False))):
                    break
                if not opened and j - i > 20:
                    break
                j += 1
            if opened and j < len(lines):
                qualified = f"{types[-1]}.{name}" if swift and types else name
                found.append((qualified, i + 1, j + 1))
                if not swift:
                    i = j + 1
                    continue
        for ch in line:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                while depth_at_type and depth <= depth_at_type[-1]:
                    depth_at_type.pop(); types.pop()
        i += 1
    return found


def sources():
    for base, dirs, files in os.walk(os.path.join(ROOT, "Sources")):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".swift", ".c")):
                yield os.path.join(base, name)


def measure():
    """{key: lines} for every function and file over its limit; key "path" or "path:function"."""
    over = {}
    for path in sources():
        rel = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8") as f:
            count = sum(1 for _ in f)
        if count > MAX_FILE:
            over[rel] = count
        for name, first, last in functions(path):
            length = last - first + 1
            if length > MAX_FUNCTION:
                key = f"{rel}:{name}"
                over[key] = max(over.get(key, 0), length)
    return over


def exceptions():
    """{key: reason} from the exceptions file: "KEY — REASON" lines; # starts a comment."""
    listed = {}
    with open(EXCEPTIONS, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, sep, reason = line.partition(" — ")
            if not sep or not reason.strip():
                raise SystemExit(f"{EXCEPTIONS}:{number}: no reason given (\"KEY — REASON\")")
            listed[key.strip()] = reason.strip()
    return listed


def main():
    over = measure()
    if "--list" in sys.argv[1:]:
        for key, count in sorted(over.items(), key=lambda kv: -kv[1]):
            print(f"{count:5}  {key}")
        return 0
    listed = exceptions()
    problems = []
    for key, count in sorted(over.items()):
        if key not in listed:
            limit = MAX_FILE if ":" not in key else MAX_FUNCTION
            problems.append(f"{key}: {count} lines, over {limit}; split it, or list it with a reason in "
                            f"tools/style-exceptions.txt")
    for key in sorted(listed):
        if key not in over:
            problems.append(f"{key}: listed in tools/style-exceptions.txt but no longer over its limit; "
                            "take it off the list")
    for problem in problems:
        print("style: " + problem)
    print(f"style: {len(over)} functions and files over the limits, {len(listed)} listed, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
