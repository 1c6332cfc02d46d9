"""What the .uir engines of targets/ share: the text of a program (both forms), the output
format of `uopc interp`, LANGUAGE.md §6's default inputs and equality, the translation of a
program into Python source one statement at a time, and the protocol of docs/ENGINES.md.

An engine module subclasses Translator with the Python expression each op becomes in its own
API, and calls serve(); the translated lines are both what runs and the standalone script
`--emit` writes.
"""

import ast
import inspect
import re
import sys

import numpy as np

NAMES = {np.dtype(np.bool_): "bool", np.dtype(np.int32): "i32", np.dtype(np.float32): "f32"}
MAX_ELEMENTS = 2**28  # LANGUAGE.md §6's default limit
F32_ONLY = {"div", "recip", "sqrt", "exp2", "log2", "sin"}
TOKEN = re.compile(r"\S+=\[[^\]]*\]|\S+")


class ProgramError(Exception):
    """A mistake in the program: exit status 2, with FILE:LINE."""


class Unsupported(Exception):
    """What the engine does not share with the language: exit status 77, the reason on stderr."""


# ---- values

def default_input(dtype, n, slot):
    """LANGUAGE.md §6: element i is v = ((37 i + 11 K) mod 23) - 11, as i32; v / 4 as f32."""
    v = (37 * np.arange(n, dtype=np.int64) + 11 * slot) % 23 - 11
    if dtype == "i32":
        return v.astype(np.int32)
    if dtype == "f32":
        return (v.astype(np.float32) / np.float32(4)).astype(np.float32)
    return v > 0


def format_f32(x):
    """The shortest text that reads back to the same float32, as C++'s std::to_chars writes it:
    fixed or scientific, whichever is shorter (fixed on a tie). A fixed integer has as many
    characters whatever its digits, so it is written exactly (99999992, not 99999990)."""
    x = np.float32(x)
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    sign = "-" if np.signbit(x) else ""
    x = abs(x)
    if x == 0:
        return sign + "0"
    mantissa, exp = np.format_float_scientific(x, unique=True, trim="-").split("e")
    digits, e = mantissa.replace(".", ""), int(exp)
    if e >= len(digits) - 1:
        fixed = str(int(x))
    elif e >= 0:
        fixed = digits[: e + 1] + "." + digits[e + 1 :]
    else:
        fixed = "0." + "0" * (-e - 1) + digits
    sci = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    sci += "e" + ("-" if e < 0 else "+") + "%02d" % abs(e)
    return sign + (fixed if len(fixed) <= len(sci) else sci)


def format_element(v, dtype):
    if dtype == np.bool_:
        return "true" if v else "false"
    if dtype == np.int32:
        return str(int(v))
    return format_f32(v)


def format_value(a):
    def axis(sub):
        if sub.ndim == 0:
            return format_element(sub[()], a.dtype.type)
        return "[" + " ".join(axis(sub[i]) for i in range(sub.shape[0])) + "]"

    return axis(a)


def format_output(name, a):
    shape = "[" + " ".join(str(d) for d in a.shape) + "]"
    return "%s %s%s = %s" % (name, NAMES[a.dtype], shape, format_value(a))


def same_bits(a, b):
    """LANGUAGE.md §6's equality: bit for bit, except that all NaNs are equal."""
    if a.dtype == np.float32:
        nan = np.isnan(a) & np.isnan(b)
        return nan | (a.view(np.uint32) == b.view(np.uint32))
    return a == b



def check(name, line, x, y):
    """An assert: a failure is kept as `uopc interp` reports it (without the file name)."""
    equal = same_bits(x, y)
    if np.all(equal):
        return
    at = np.unravel_index(int(np.argmin(equal.reshape(-1))), x.shape)
    FAILURES.append("%d: assert %s failed: first difference at [%s]: %s vs %s" % (
        line, name, " ".join(str(int(i)) for i in at), format_element(x[at], x.dtype.type),
        format_element(y[at], y.dtype.type)))


# ---- the text
class Statement:
    def __init__(self, line, name, op, operands, attrs):
        self.line, self.name, self.op = line, name, op
        self.operands, self.attrs = operands, attrs


def is_book(line):
    return "," in line or " : " in line or "(" in line


def book_statement(rest):
    """A book-form right-hand side ("reshape %0, (3, 4)", "reduce %2 : op=add pop=1") as the
    canonical op, operands and attributes, and whether a reduce folds the trailing axes."""
    rest, _, attrs_text = rest.partition(" : ")
    op, _, args_text = rest.strip().partition(" ")
    attrs = dict(t.split("=", 1) for t in TOKEN.findall(attrs_text))
    operands, depth, word = [], 0, ""
    for c in args_text + ",":
        depth += (c == "(") - (c == ")")
        if c == "," and depth == 0:
            operands.append(word.strip())
            word = ""
        else:
            word += c
    operands = [w for w in operands if w]
    tuples = [ast.literal_eval(w) for w in operands if w.startswith("(")]
    operands = [w for w in operands if not w.startswith("(")]
    if tuples:
        t = tuples[0]
        if op in ("reshape", "expand"):
            attrs["shape"] = "[%s]" % " ".join(map(str, t))
        elif op == "permute":
            attrs["order"] = "[%s]" % " ".join(map(str, t))
        elif op == "flip":
            attrs["axes"] = "[%s]" % " ".join(map(str, t))
        elif op == "shrink":
            operands += [str(b) for b, _ in t]
            attrs["shape"] = "[%s]" % " ".join(str(e - b) for b, e in t)
        elif op == "pad":
            attrs["pads"] = "[%s]" % " ".join("%d %d" % pair for pair in t)
    return op, operands, attrs, op == "reduce"


def parse(text, path):
    statements = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = "%s:%d" % (path, number)
        name, eq, rest = line.partition(" = ")
        if not eq or not name.startswith("%") or not rest.strip():
            raise ProgramError(where + ": expected '%name = op operands...'")
        try:
            if is_book(rest):
                op, operands, attrs, trailing = book_statement(rest)
            else:
                tokens = TOKEN.findall(rest)
                op, trailing = tokens[0], False
                attrs = dict(t.split("=", 1) for t in tokens[1:] if "=" in t)
                operands = [t for t in tokens[1:] if "=" not in t]
        except (ValueError, SyntaxError, TypeError) as e:
            raise ProgramError("%s: cannot read the statement (%s)" % (where, e))
        statement = Statement(number, name, op, operands, attrs)
        statement.trailing = trailing
        statements.append(statement)
    return statements


def ints(text):
    return [int(v) for v in text.strip("[]").split()]


def is_literal(token):
    return not token.startswith("%")


def is_float_literal(token):
    return is_literal(token) and token not in ("true", "false") and re.search(r"[.eEn]", token)


# ---- translation

class Translator:
    """Each statement becomes one line of Python, run as soon as it is made, so that the dtype
    and shape of every value are known to the statements after it. An engine gives the prelude
    its lines run on, the expression of each op, and how literals and values look."""

    prelude = ""  # Python source the lines run on, also the head of an emitted script
    # How a literal is written: a %-format for the bool, the float32 (its token) and the int32
    # value.
    literal_forms = {"bool": None, "float32": None, "int32": None}

    def __init__(self, statements, path, env):
        self.statements, self.path = statements, path
        self.names = {}  # .uir name -> Python variable
        self.env = dict(env, FAILURES=[])
        exec(self.prelude, self.env)
        self.lines = []

    # -- what an engine gives
    def expression(self, s, args):
        raise NotImplementedError

    def dtype_of(self, value):
        """'bool', 'int32' or 'float32'."""
        raise NotImplementedError

    def to_numpy(self, value):
        return np.asarray(value)

    # -- shared
    def literal(self, token, dtype):
        if token in ("true", "false"):
            return self.literal_forms["bool"] % (token == "true")
        if dtype is None:
            dtype = "float32" if is_float_literal(token) else "int32"
        if dtype == "float32":
            return self.literal_forms["float32"] % token
        return self.literal_forms["int32"] % int(token)

    def var(self, name):
        return self.names[name]

    def value(self, token):
        return self.env[self.var(token)]

    def dtype(self, token):
        return self.dtype_of(self.value(token))

    def literal_dtype(self, s):
        """The dtype literal operands take (docs/LANGUAGE.md, Literals)."""
        values = [t for t in s.operands if not is_literal(t)]
        if s.op == "where":
            values = [t for t in s.operands[1:] if not is_literal(t)]
        if values:
            return self.dtype(values[0])
        if s.op in F32_ONLY or any(is_float_literal(t) for t in s.operands):
            return "float32"
        return None

    def operand(self, s, token, dtype):
        if is_literal(token):
            return self.literal(token, dtype)
        if token not in self.names:
            raise ProgramError("%s:%d: %s is not defined before its use" % (
                self.path, s.line, token))
        return self.var(token)

    def args(self, s):
        dtype = self.literal_dtype(s)
        if s.op == "where":
            return [self.operand(s, s.operands[0], "bool")] + [
                self.operand(s, t, dtype) for t in s.operands[1:]]
        if s.op in ("index", "shrink"):
            return [self.operand(s, s.operands[0], None)] + [
                self.operand(s, t, "int32") for t in s.operands[1:]]
        return [self.operand(s, t, dtype) for t in s.operands]

    def slot(self, s):
        before = sum(1 for t in self.statements[: self.statements.index(s)] if t.op == "buffer")
        return int(s.attrs.get("slot", before))

    def fill(self, s):
        """A pad's fill value as a literal of x's dtype (0 / false by default)."""
        dtype = self.dtype(s.operands[0])
        return self.literal(s.attrs.get("value", "false" if dtype == "bool" else "0"), dtype)

    def book_order(self, s):
        """For the book's reduce, which folds the trailing axes: the order moving them first."""
        pop, rank = int(s.attrs.get("pop", "1")), len(self.value(s.operands[0]).shape)
        return list(range(rank - pop, rank)) + list(range(rank - pop))

    def check_size(self, s):
        """Refuses a value above the limit before it is allocated."""
        shapes = [tuple(self.value(t).shape) for t in s.operands if t in self.names]
        if "shape" in s.attrs:
            shape = [d for d in ints(s.attrs["shape"]) if d >= 0]
        elif s.op == "pad" and shapes:
            pads = ints(s.attrs["pads"])
            shape = [d + l + r for d, l, r in zip(shapes[0], pads[0::2], pads[1::2])]
        elif s.op == "stack":
            shape = [len(s.operands)] + list(np.broadcast_shapes(*shapes) if shapes else [])
        elif s.op == "buffer":
            shape = [int(s.operands[0])]
        else:
            shape = list(np.broadcast_shapes(*shapes)) if shapes else []
        if int(np.prod(shape, dtype=np.float64)) > MAX_ELEMENTS:
            raise ProgramError("%s:%d: %s has more than %d elements" % (
                self.path, s.line, s.name, MAX_ELEMENTS))

    def run(self):
        for k, s in enumerate(self.statements):
            try:  # a statement that cannot be translated is the program's mistake
                self.check_size(s)
                code = self.expression(s, self.args(s))
            except (KeyError, ValueError, IndexError) as e:
                raise ProgramError("%s:%d: %s: %s" % (self.path, s.line, s.op, e))
            if s.op != "assert":
                self.names[s.name] = "v%d_%s" % (k, re.sub(r"[^A-Za-z0-9_]", "_", s.name[1:]))
                code = self.var(s.name) + " = " + code
            self.lines.append("%s  # line %d" % (code, s.line))
            exec(code, self.env)  # one that fails to run is the engine's (status 3)

    def failures(self):
        return self.env["FAILURES"]

    def outputs(self):
        return [(name, self.to_numpy(self.value(name))) for name in self.output_names()]

    def output_names(self):
        used = {t for s in self.statements for t in s.operands if t.startswith("%")}
        return [s.name for s in self.statements
                if s.op != "assert" and s.name not in used and s.name in self.names]

    def script(self, head):
        """A standalone script of the program in the engine's API, for a bug report."""
        out = [head, self.prelude, "FAILURES = []"] + self.lines
        for name in self.output_names():
            out.append("print(%r, %s.tolist())" % (name, self.var(name)))
        out += ["for failure in FAILURES:", "    print(failure)"]
        return "\n".join(out) + "\n"


def source_of(*functions):
    """The source of module-level functions, for a prelude that must stand alone."""
    return "\n\n".join(inspect.getsource(f) for f in functions) + "\n"


# ---- the protocol of docs/ENGINES.md

def run_file(path, out, make, emit_to=None):
    with open(path) as f:
        text = f.read()
    program = make(parse(text, path), path)
    try:
        program.run()
    finally:  # a script of what ran so far, also when the engine fails: that is the report
        if emit_to:
            with open(emit_to, "w") as f:
                f.write(program.emit())
    for name, value in program.outputs():
        out.write(format_output(name, value) + "\n")
    for failure in program.failures():
        sys.stderr.write("%s:%s\n" % (path, failure))
    return 1 if program.failures() else 0


def status_of(path, out, make, emit_to=None):
    """0, 1, 2 (a bad program), 77 (unsupported) or 3 (the engine itself failed)."""
    try:
        with np.errstate(all="ignore"):
            return run_file(path, out, make, emit_to)
    except ProgramError as e:
        sys.stderr.write("%s\n" % e)
        return 2
    except Unsupported as e:
        sys.stderr.write("unsupported: %s\n" % e)
        return 77
    except OSError as e:
        sys.stderr.write("%s\n" % e)
        return 2
    except Exception:  # the engine failed: a crash by the protocol, not an assert
        import traceback
        traceback.print_exc()
        return 3


def persistent(make):
    for line in sys.stdin:
        path = line.rstrip("\n")
        if not path:
            continue
        with open(path + ".out", "w") as out:
            status = status_of(path, out, make)
        sys.stderr.flush()
        sys.stdout.write("%d\n" % status)
        sys.stdout.flush()
    return 0


def serve(argv, make, usage):
    """FILE, FILE --emit OUT, or --persistent, as docs/ENGINES.md describes."""
    if argv[1:] == ["--persistent"]:
        return persistent(make)
    if len(argv) == 4 and argv[2] == "--emit":
        return status_of(argv[1], sys.stdout, make, argv[3])
    if len(argv) != 2 or argv[1].startswith("-"):
        sys.stderr.write(usage)
        return 2
    return status_of(argv[1], sys.stdout, make)
