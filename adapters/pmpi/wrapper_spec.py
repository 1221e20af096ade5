# SPDX-License-Identifier: BSD-3-Clause
"""Reading mpi_functions.spec and the build's preprocessed mpi.h for
generate_wrappers.py: the entries (their parameters, kind, options) and the
functions the header declares with their parameter lists."""

import re

from wrapper_kinds import (HANDLE_F2C, OFFSET_TYPES, PLACEHOLDER, ROLES, SpecError,
                           parse_kind)


class Param:
    def __init__(self, text):
        m = re.match(r"^(?P<type>.*?[\s*])(?P<name>\w+)\s*(?P<array>(?:\[[^\]]*\]\s*)*)$",
                     text.strip())
        if not m or not m.group("type").strip():
            raise SpecError("cannot read the parameter '%s'" % text.strip())
        self.type = normalise_type(m.group("type"))
        self.name = m.group("name")
        # "[]" or "[][3]" (Group_range_incl): kept as written
        self.suffix = re.sub(r"\s+", "", m.group("array"))
        self.array = bool(self.suffix)
        base = self.type.replace("const ", "").replace(" ", "")
        self.base = base.rstrip("*")
        self.stars = len(base) - len(self.base)

    def c_decl(self):
        sep = "" if self.type.endswith("*") else " "
        return "%s%s%s%s" % (self.type, sep, self.name, self.suffix)

    def fortran_class(self):
        """How the Fortran binding passes it, and how to get its C value."""
        if self.base == "void" and self.stars == 1:
            return "buffer"
        if self.base == "int" and self.stars == 0:
            return "int_array" if self.array else "int"
        if self.base == "int" and self.stars == 1 and not self.array:
            return "int_pointer"
        if self.base in HANDLE_F2C and self.stars == 0:
            return "handle_array" if self.array else "handle"
        if self.base in HANDLE_F2C and self.stars == 1 and not self.array:
            return "handle_pointer"
        if self.base == "MPI_Status":
            return "status"
        if self.base == "char":
            return "string"
        if self.base in OFFSET_TYPES and self.stars == 0 and not self.array:
            return "offset"
        return "opaque"

    def fortran_decl(self):
        cls = self.fortran_class()
        if cls == "buffer":
            return self.c_decl()
        if cls == "string":
            return "char *%s" % self.name
        if cls == "offset":
            return "%s *%s" % (self.base, self.name)
        if cls == "opaque":
            return "void *%s" % self.name
        return "MPI_Fint *%s" % self.name


def normalise_type(text):
    """"const void  * " -> "const void *", "char***" -> "char ***"."""
    text = re.sub(r"\s*\*\s*", "*", re.sub(r"\s+", " ", text.strip()))
    return text.replace("*", " *", 1)


class Function:
    """One spec entry. `arguments` is the C parameter list, or "mpi.h": the
    list exactly as the build's mpi.h declares it (header: what
    read_header found; None when the function is not declared there)."""

    def __init__(self, line, name, role, kind_text, arguments, options, family, header):
        self.line = line
        self.name = name
        self.role = role
        self.family = family
        self.kind_text = kind_text
        self.unwrapped = kind_text == "unwrapped"
        self.c_only = False
        self.large_count = False
        self.variadic = False
        self.fortran_omits = []
        self.params = []
        self.fortran_params = []
        # Declared by the build's mpi.h (always when there is no header to ask).
        self.available = header is None or name in header
        if self.unwrapped:
            if role != "-" or arguments.strip() != "-" or options:
                raise SpecError("an unwrapped entry is 'NAME | - | unwrapped | -'")
            return
        if role == "-":
            raise SpecError("only unwrapped entries have no role")
        self.kind = parse_kind(kind_text)
        args = arguments.strip()
        if args == "mpi.h":
            if header is None or name not in header:
                self.available = False
                return
            returns, args = header[name]
            if returns != "int":
                raise SpecError("%s returns %s, not int: wrap it by hand or mark it unwrapped"
                                % (name, returns))
        parts = [] if args == "void" else split_args(args)
        if parts and parts[-1] == "...":
            self.variadic = True
            parts = parts[:-1]
        self.params = [Param(p) for p in parts]
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise SpecError("%s has two parameters of the same name" % name)
        for option in options:
            key, _, value = option.partition("=")
            key = key.strip()
            if key == "fortran-omits" and value.strip():
                self.fortran_omits = [v.strip() for v in value.split(",")]
                for omitted in self.fortran_omits:
                    if omitted not in names:
                        raise SpecError("fortran-omits names '%s', which %s does not have"
                                        % (omitted, name))
            elif key == "c-only" and not value:
                self.c_only = True
            elif key == "large-count" and not value:
                self.large_count = True
            else:
                raise SpecError("unknown option '%s' (known: fortran-omits=A,B, c-only, "
                                "large-count)" % option)
        if self.variadic:
            self.c_only = True
        self.fortran_params = [p for p in self.params if p.name not in self.fortran_omits]
        self.check_placeholders()

    def large_count_variant(self, header):
        """MPI-4's NAME_c (MPI_Count counts), where mpi.h declares it: its
        region only, under its own name."""
        name = self.name + "_c"
        if not self.large_count or header is None or name not in header:
            return None
        return Function(self.line, name, self.role, "plain", "mpi.h", ["c-only"], self.family,
                        header)

    @property
    def lower(self):
        return self.name.lower()

    def param(self, name):
        for p in self.params:
            if p.name == name:
                return p
        return None

    def check_placeholders(self):
        k = self.kind
        statements = k.pre_c + k.pre_f + k.post_c + k.post_f + k.after_leave
        for text in statements:
            for token in PLACEHOLDER.findall(text):
                if token == "index_base":
                    continue
                name = token.lstrip("*").split(":")[-1]
                p = self.param(name)
                if p is None:
                    raise SpecError("kind '%s' needs a parameter '%s', which %s does not have"
                                    % (self.kind_text, name, self.name))
                if token.startswith("*") and p.fortran_class() != "int_pointer":
                    raise SpecError("kind '%s' reads *%s, but '%s' is not an int pointer"
                                    % (self.kind_text, name, p.c_decl()))
        for name in list(k.args) + ([k.status] if k.status else []):
            if self.param(name) is None:
                raise SpecError("kind '%s' needs a parameter '%s', which %s does not have"
                                % (self.kind_text, name, self.name))


def split_args(text):
    return [a for a in (part.strip() for part in text.split(",")) if a]


def read_spec(path, header=None):
    """The spec's entries, in order (unwrapped and undeclared ones too), and
    its families [(key, title)]; SpecError with "path:line:" on trouble."""
    functions, families = [], []
    seen = {}
    with open(path, encoding="utf-8") as f:
        raw = f.read().split("\n")
    entry, first_line = "", 0
    for number, text in enumerate(raw, 1):
        stripped = text.strip()
        if not entry and (not stripped or stripped.startswith("#")):
            continue
        if not entry and stripped.startswith("@family"):
            m = re.match(r"^@family\s+([a-z0-9-]+)\s+(\S.*)$", stripped)
            if not m:
                raise SpecError("%s:%d: expected '@family KEY Title'" % (path, number))
            if any(key == m.group(1) for key, _ in families):
                raise SpecError("%s:%d: the family %s is listed twice" % (path, number, m.group(1)))
            families.append((m.group(1), m.group(2)))
            continue
        if not entry:
            first_line = number
        if stripped.endswith("\\"):
            entry += stripped[:-1] + " "
            continue
        entry += stripped
        try:
            if not families:
                raise SpecError("an entry before the first '@family'")
            fn = parse_entry(entry, first_line, seen, families[-1][0], header)
            functions.append(fn)
            variant = fn.large_count_variant(header)
            if variant:
                seen[variant.name] = first_line
                functions.append(variant)
        except SpecError as e:
            raise SpecError("%s:%d: %s" % (path, first_line, e))
        entry = ""
    if entry:
        raise SpecError("%s:%d: the entry does not end (a '\\' on its last line?)"
                        % (path, first_line))
    if not functions:
        raise SpecError("%s: no functions" % path)
    return functions, families


def parse_entry(entry, line, seen, family, header):
    fields = [f.strip() for f in entry.split("|")]
    if len(fields) < 4:
        raise SpecError("expected NAME | ROLE | KIND | ARGUMENTS [| OPTIONS], found %d field%s"
                        % (len(fields), "" if len(fields) == 1 else "s"))
    if len(fields) > 5:
        raise SpecError("too many fields (%d; at most five)" % len(fields))
    name, role, kind, arguments = fields[:4]
    options = fields[4].split() if len(fields) == 5 else []
    for label, value in (("name", name), ("role", role), ("kind", kind),
                         ("arguments", arguments)):
        if not value:
            raise SpecError("the %s field is empty" % label)
    if not re.match(r"^MPI_[A-Z][A-Za-z0-9_]*$", name):
        raise SpecError("'%s' is not an MPI function name (MPI_Xxx)" % name)
    if name in seen:
        raise SpecError("%s is listed twice (first on line %d)" % (name, seen[name]))
    seen[name] = line
    if role not in ROLES and role != "-":
        raise SpecError("unknown role '%s' (one of %s)" % (role, ", ".join(ROLES)))
    return Function(line, name, role, kind, arguments, options, family, header)


# ---- mpi.h -------------------------------------------------------------------------------------

def strip_attributes(text):
    """Removes every __attribute__((...)) (nested parentheses)."""
    out, i = [], 0
    while True:
        j = text.find("__attribute__", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:j])
        k = text.find("(", j)
        if k < 0:
            return "".join(out)
        depth = 0
        while k < len(text):
            if text[k] == "(":
                depth += 1
            elif text[k] == ")":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        i = k + 1


def read_header(path):
    """The MPI_ functions a preprocessed mpi.h declares: {name: (return type,
    parameter list)}, the parameters as written (unnamed ones get names)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    text = re.sub(r"^\s*#.*$", "", text, flags=re.M)
    text = re.sub(r"\s+", " ", strip_attributes(text))
    text = text.replace("__extension__", " ")
    found = {}
    for statement in text.split(";"):
        if "{" in statement or "typedef" in statement:
            # a declaration right after a struct or a typedef's brace
            statement = statement.rsplit("}", 1)[-1]
            if "typedef" in statement:
                continue
        m = re.match(r"^\s*(?:extern\s+)?(?:\"C\"\s+)?([\w\s*]+?)\s*\b(MPI_\w+)\s*\((.*)\)\s*$",
                     statement)
        if not m or "(" in m.group(3).replace("(*", ""):
            continue
        returns = re.sub(r"\s+", " ", m.group(1).replace("extern", "")).strip()
        params = []
        for i, part in enumerate(split_args(m.group(3))):
            part = part.strip()
            if part not in ("...", "void") and not re.search(r"\w\s*(\[[^\]]*\]\s*)*$", part):
                part = part + " arg%d" % i
            elif part not in ("...", "void") and re.match(r"^(const\s+)?\w+$", part):
                part = part + " arg%d" % i
            params.append(part)
        found[m.group(2)] = (returns, ", ".join(params) or "void")
    return found
