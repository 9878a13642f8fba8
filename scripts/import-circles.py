#!/usr/bin/env python3
"""Lists the import circles among the modules of a crate's non-test code.

    scripts/import-circles.py [--edges] [--known MODULE]... [CRATE_SRC]
    (default crates/tablebase/src)

(`--edges` prints every import first. `--known MODULE`: a circle made
only of MODULE and the modules below it is printed as known and does not
fail the run; CI passes the circles not broken yet this way, so that a new
one fails.)

A module is a file (`lib.rs` the root, `a.rs` and `a/mod.rs` the module
`a`). Module A imports module B when A's code names a path into B
(`use crate::b::X`, `super::b::f(..)`, `crate::b::X` inline); a path
through a re-export (`pub use b::X` in the root) is followed to the
module that defines the name, and `mod b;` itself is no import. Test code
(`#[cfg(test)]` items and the files they declare) is left out.

A circle is a strongly connected component of that graph. One made of a
module and its own parent only is allowed (a parent re-exports its
child, the child reads its parent's shared types); every other circle is
printed, one line each, its modules sorted, and the script exits 1 if it
found one, 0 if none.
"""

import os
import re
import sys


def strip(text):
    """The text with comments, strings and char literals blanked (line
    breaks kept), so that braces and paths in them are not read."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:]) and not re.match(r"\w", text[i - 1 : i] or " "):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            j = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", text[i : j + 1]))
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def item_end(code, start):
    """The end of the item starting at `start`: its `;` or its braces."""
    semi = code.find(";", start)
    brace = code.find("{", start)
    if brace < 0 or (0 <= semi < brace):
        return semi + 1
    depth, j = 0, brace
    while j < len(code):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return len(code)


def without_tests(code):
    """`code` with its `#[cfg(test)]` items removed, and the names of the
    module files those items declare (`#[cfg(test)] mod tests;`)."""
    test_mods = []
    while True:
        m = re.search(r"#\[cfg\(test\)\]", code)
        if not m:
            return code, test_mods
        end = item_end(code, m.end())
        decl = re.match(r"\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", code[m.end() : end])
        if decl:
            test_mods.append(decl.group(1))
        code = code[: m.start()] + re.sub(r"[^\n]", " ", code[m.start() : end]) + code[end:]


def expand_use(tree):
    """The paths of a use tree (`a::{b, c::{d, e}}` gives a::b, a::c::d,
    a::c::e), each a list of segments; `self` in braces is the prefix."""
    tree = re.sub(r"\s+as\s+\w+", "", tree)
    tree = re.sub(r"\s+", "", tree)

    def parse(s, i):
        # Returns (paths, i): a path prefix then optionally a {group}.
        m = re.match(r"((?:[\w*]+::)*)([\w*]+)?", s[i:])
        prefix = [p for p in m.group(1).split("::") if p]
        i += len(m.group(0))
        if m.group(2):
            return [prefix + [m.group(2)]], i
        if i < len(s) and s[i] == "{":
            i += 1
            paths = []
            while s[i] != "}":
                sub, i = parse(s, i)
                for p in sub:
                    paths.append(prefix if p == ["self"] else prefix + p)
                if s[i] == ",":
                    i += 1
            return paths, i + 1
        return [prefix], i

    return parse(tree, 0)[0]


class Crate:
    def __init__(self, src):
        self.src = src
        self.files = {}  # module path (tuple) -> stripped code
        self.load(("crate",), os.path.join(src, "lib.rs"))
        self.reexports = {m: self.reexports_of(m) for m in self.files}

    def load(self, module, path):
        code, test_mods = without_tests(strip(open(path, encoding="utf-8").read()))
        self.files[module] = code
        here = os.path.dirname(path)
        if not (path.endswith("lib.rs") or path.endswith("mod.rs")):
            here = os.path.join(here, module[-1])
        for m in re.finditer(r"(?m)^\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", code):
            name = m.group(1)
            if name in test_mods:
                continue
            attr = re.search(r'#\[path\s*=\s*"([^"]+)"\]', code[max(0, m.start() - 200) : m.start()])
            candidates = [os.path.join(here, f"{name}.rs"), os.path.join(here, name, "mod.rs")]
            if attr:
                candidates = [os.path.join(here, attr.group(1))]
            for c in candidates:
                if os.path.exists(c):
                    self.load(module + (name,), c)
                    break

    def uses(self, module):
        """Every path (a list of segments) the module's code names."""
        code = self.files[module]
        for m in re.finditer(r"\buse\s+([^;]+);", code):
            yield from expand_use(m.group(1))
        body = re.sub(r"\buse\s+[^;]+;", "", code)
        for m in re.finditer(r"\b(?:crate|super|self)(?:::\w+)+", body):
            yield m.group(0).split("::")

    def reexports_of(self, module):
        """Name -> absolute path of what `pub use` re-exports in `module`."""
        out = {}
        for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", self.files[module]):
            for path in expand_use(m.group(1)):
                absolute = self.absolute(module, path)
                if absolute and path[-1] not in ("*", "self"):
                    out[path[-1]] = absolute
        return out

    def absolute(self, module, path):
        """`path` as named in `module`, from the crate root, or None if it
        leaves the crate."""
        if not path:
            return None
        head, rest = path[0], path[1:]
        if head == "crate":
            base = ["crate"]
        elif head == "self":
            base = list(module)
        elif head == "super":
            base = list(module)
            while path and path[0] == "super":
                base, path = base[:-1], path[1:]
            rest = path
        elif tuple(module) + (head,) in self.files:
            base, rest = list(module) + [head], rest  # a child named directly
        else:
            return None
        return base + rest

    def resolve(self, path, seen=0):
        """The module that defines what the absolute `path` names."""
        best = ("crate",)
        for k in range(1, len(path) + 1):
            if tuple(path[:k]) in self.files:
                best = tuple(path[:k])
        rest = path[len(best) :]
        if rest and rest[0] in self.reexports.get(best, {}) and seen < 10:
            target = self.reexports[best][rest[0]]
            if target[: len(best)] != list(best) or len(target) > len(best) + 1:
                return self.resolve(target + rest[1:], seen + 1)
        return best

    def graph(self):
        edges = {m: set() for m in self.files}
        for module in self.files:
            for path in self.uses(module):
                absolute = self.absolute(module, path)
                if absolute:
                    target = self.resolve(absolute)
                    if target != module:
                        edges[module].add(target)
        return edges


def components(edges):
    """Tarjan's strongly connected components."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    argv, args, known = sys.argv[1:], [], []
    while argv:
        a = argv.pop(0)
        if a == "--known" and argv:
            known.append(tuple(argv.pop(0).split("::")))
        elif a != "--edges":
            args.append(a)
    src = args[0] if args else "crates/tablebase/src"
    crate = Crate(src)
    if "--edges" in sys.argv:
        for module, targets in sorted(crate.graph().items()):
            for t in sorted(targets):
                print(f"{'::'.join(module[1:]) or '(root)'} -> {'::'.join(t[1:]) or '(root)'}")
    found = 0
    for comp in components(crate.graph()):
        if len(comp) < 2:
            continue
        if len(comp) == 2:
            a, b = sorted(comp, key=len)
            if b[:-1] == a:
                continue
        names = sorted("::".join(m[1:]) or "(root)" for m in comp)
        if any(all(m[1 : 1 + len(k)] == k for m in comp) for k in known):
            print(f"known, {len(comp)} modules: {' '.join(names)}")
            continue
        print(f"{len(comp)} modules: {' '.join(names)}")
        found += 1
    print(f"{found} circles in {len(crate.files)} modules of {src}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
