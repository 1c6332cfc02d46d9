#!/usr/bin/env python3
"""Runs .uir programs with NumPy: a third engine beside uopc's interpreter and compiler.

Every op is written here again from the language's semantics with NumPy's own operations, so
that `uopc fuzz --target` can diff the interpreter against an implementation that shares no
code with it (docs/ENGINES.md). It answers by the protocol of that page:

    numpy_uir.py FILE              print FILE's outputs as `uopc interp` does; exit 0, 1 when an
                                   assert fails, 2 when FILE does not parse
    numpy_uir.py --persistent      read one program path per line on stdin; write each one's
                                   outputs to PATH.out and answer its status on a line
    numpy_uir.py FILE --emit OUT   also write OUT, a standalone NumPy script that computes
                                   FILE's outputs, ready for a bug report

Both text forms are read, the canonical one and the book form. Programs are expected to be
valid (uopc checks the type rules before it asks); one that is not may get any answer, never
a hang. NUMPY_UIR_PLANT=NAME switches on a planted bug, so
that a test can show a campaign finds a wrong engine: `flip_drops_last_axis` leaves the last of
several flipped axes alone, `idiv_truncates` divides toward zero.
"""

import ast
import os
import re
import sys

import numpy as np

PLANT = os.environ.get("NUMPY_UIR_PLANT", "")
DTYPES = {"bool": np.bool_, "i32": np.int32, "f32": np.float32}
NAMES = {np.dtype(np.bool_): "bool", np.dtype(np.int32): "i32", np.dtype(np.float32): "f32"}
MAX_ELEMENTS = 2**28  # SPEC section 6's default limit
F32_ONLY = {"div", "recip", "sqrt", "exp2", "log2", "sin"}
TOKEN = re.compile(r"\S+=\[[^\]]*\]|\S+")


class ProgramError(Exception):
    """A mistake in the program: exit status 2, with FILE:LINE."""


# ---- values

INT_MIN, INT_MAX = -(2**31), 2**31 - 1


def default_input(dtype, n, slot):
    """SPEC section 6: element i is v = ((37 i + 11 K) mod 23) - 11, as i32; v / 4 as f32."""
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
    """SPEC section 6's equality: bit for bit, except that all NaNs are equal."""
    if a.dtype == np.float32:
        nan = np.isnan(a) & np.isnan(b)
        return nan | (a.view(np.uint32) == b.view(np.uint32))
    return a == b


# ---- ops

def wrap(x):
    """An int64 array as i32, modulo 2^32."""
    return ((x.astype(np.int64) + 2**31) % 2**32 - 2**31).astype(np.int32)


def idiv(a, b):
    a, b = a.astype(np.int64), b.astype(np.int64)
    safe = np.where(b == 0, 1, b)
    q = np.trunc(a / safe).astype(np.int64) if PLANT == "idiv_truncates" else a // safe
    return wrap(np.where(b == 0, 0, q))


def mod(a, b):
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    safe = np.where(b64 == 0, 1, b64)
    return wrap(np.where(b64 == 0, a64, a64 - (a64 // safe) * safe))


def pick_max(a, b):
    return np.where(a > b, a, b)


def pick_min(a, b):
    return np.where(a < b, a, b)


def f32(fn):
    """A libm function, computed in double and rounded once, as correctly rounded f32 would be."""
    return lambda x: fn(x.astype(np.float64)).astype(np.float32)


def cast(x, dtype):
    if x.dtype == dtype:
        return x
    if dtype == np.bool_:
        return x != 0
    if dtype == np.int32 and x.dtype == np.float32:
        t = np.trunc(np.nan_to_num(x.astype(np.float64), nan=0.0, posinf=INT_MAX, neginf=INT_MIN))
        return np.clip(t, INT_MIN, INT_MAX).astype(np.int32)
    return x.astype(dtype)


def arith(op):
    def apply(a, b):
        if a.dtype == np.int32:
            return wrap(op(a.astype(np.int64), b.astype(np.int64)))
        return op(a, b).astype(np.float32)

    return apply


BINARY = {
    "add": arith(lambda a, b: a + b),
    "sub": arith(lambda a, b: a - b),
    "mul": arith(lambda a, b: a * b),
    "div": lambda a, b: np.divide(a, b, dtype=np.float32),
    "idiv": idiv,
    "mod": mod,
    "max": pick_max,
    "min": pick_min,
    "cmplt": lambda a, b: a < b,
    "cmpeq": lambda a, b: a == b,
    "cmpne": lambda a, b: a != b,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
}

UNARY = {
    "neg": lambda x: wrap(-x.astype(np.int64)) if x.dtype == np.int32 else np.negative(x),
    "not": np.logical_not,
    "recip": lambda x: np.divide(np.float32(1), x, dtype=np.float32),
    "sqrt": lambda x: np.sqrt(x, dtype=np.float32),
    "exp2": f32(np.exp2),
    "log2": f32(np.log2),
    "sin": f32(np.sin),
}

FOLDS = {
    "add": (arith(lambda a, b: a + b), {np.float32: -0.0, np.int32: 0}),
    "mul": (arith(lambda a, b: a * b), {np.float32: 1.0, np.int32: 1}),
    "max": (pick_max, {np.float32: -np.inf, np.int32: INT_MIN, np.bool_: False}),
    "min": (pick_min, {np.float32: np.inf, np.int32: INT_MAX, np.bool_: True}),
}


def reduce(x, op, pop):
    """A left fold over the leading `pop` axes in row-major order, from the identity."""
    fold, identities = FOLDS[op]
    rest = x.shape[pop:]
    acc = np.full(rest, identities[x.dtype.type], dtype=x.dtype)
    for row in x.reshape((-1,) + rest) if x.size else []:
        acc = fold(acc, row)
    return acc


def shrink(x, offsets, shape):
    offsets = [int(o) for o in offsets]
    if any(o < 0 or o + n > d for o, n, d in zip(offsets, shape, x.shape)):
        raise IndexError("the window leaves the operand")
    return x[tuple(slice(o, o + n) for o, n in zip(offsets, shape))]


def pad(x, pads, fill):
    widths = list(zip(pads[0::2], pads[1::2]))
    return np.pad(x, widths, constant_values=fill) if x.ndim else x


def check(name, line, x, y):
    """An assert: a failure is kept as `uopc interp` reports it (without the file name)."""
    equal = same_bits(x, y)
    if np.all(equal):
        return
    at = np.unravel_index(int(np.argmin(equal.reshape(-1))), x.shape)
    FAILURES.append("%d: assert %s failed: first difference at [%s]: %s vs %s" % (
        line, name, " ".join(str(int(i)) for i in at), format_element(x[at], x.dtype.type),
        format_element(y[at], y.dtype.type)))


def flip(x, axes):
    if PLANT == "flip_drops_last_axis" and len(axes) > 1:
        axes = axes[:-1]
    return np.flip(x, axis=tuple(axes)) if axes else x


# ---- the program, translated to Python over the helpers above

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


def literal(token, dtype):
    """A literal as Python source, in the dtype its statement gives it (docs/LANGUAGE.md)."""
    if token in ("true", "false"):
        return "np.bool_(%s)" % (token == "true")
    if dtype is None:
        dtype = "float32" if is_float_literal(token) else "int32"
    if dtype == "float32":
        return "np.float32(%r)" % token
    return "np.int32(%d)" % int(token)


class Program:
    """Each statement becomes one line of Python, run as soon as it is made, so that the dtype
    of every value is known to the statements after it; the lines are also the script --emit
    writes."""

    def __init__(self, statements, path):
        self.statements, self.path = statements, path
        self.names = {}  # .uir name -> Python variable
        self.env = {"np": np, "FAILURES": [], "PLANT": PLANT}
        exec(helpers(), self.env)
        self.lines = []

    def var(self, name):
        return self.names[name]

    def dtype(self, token):
        return self.env[self.var(token)].dtype.name

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
            return literal(token, dtype)
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

    def buffers_before(self, s):
        return sum(1 for t in self.statements[: self.statements.index(s)] if t.op == "buffer")

    def expression(self, s):
        op, a, args = s.op, s.attrs, self.args(s)
        x = args[0] if args else None
        if op == "buffer":
            slot = int(a.get("slot", self.buffers_before(s)))
            return "default_input(%r, %d, %d)" % (a.get("dtype", "f32"), int(s.operands[0]), slot)
        if op == "stack":
            return "np.stack(np.broadcast_arrays(%s))" % ", ".join(args)
        if op == "index":
            return "np.asarray(%s[%s])" % (x, ", ".join("int(%s)" % j for j in args[1:]) or "()")
        if op == "reshape":
            return "%s.reshape(%s)" % (x, ints(a["shape"]))
        if op == "permute":
            return "np.transpose(%s, %s)" % (x, ints(a["order"]))
        if op == "expand":
            return "np.broadcast_to(%s, %s).copy()" % (x, ints(a["shape"]))
        if op == "shrink":
            return "shrink(%s, [%s], %s)" % (x, ", ".join(args[1:]), ints(a["shape"]))
        if op == "pad":
            fill = a.get("value", "false" if self.dtype(s.operands[0]) == "bool" else "0")
            return "pad(%s, %s, %s)" % (x, ints(a["pads"]), literal(fill, self.dtype(
                s.operands[0])))
        if op == "flip":
            return "flip(%s, %s)" % (x, ints(a.get("axes", "[]")))
        if op == "reduce":
            pop = int(a.get("pop", "1"))
            if s.trailing:  # the book's reduce folds the trailing axes: moved to the front
                rank = self.env[self.var(s.operands[0])].ndim
                x = "np.transpose(%s, %s)" % (x, list(range(rank - pop, rank)) +
                                              list(range(rank - pop)))
            return "reduce(%s, %r, %d)" % (x, a["op"], pop)
        if op == "stage":
            return x
        if op == "cast":
            return "cast(%s, np.%s)" % (x, DTYPES[a["dtype"]].__name__)
        if op == "where":
            return "np.where(*np.broadcast_arrays(%s))" % ", ".join(args)
        if op == "assert":
            return "check(%r, %d, *np.broadcast_arrays(%s))" % (s.name, s.line, ", ".join(args))
        if op in UNARY:
            return "np.asarray(UNARY[%r](%s))" % (op, x)
        if op in BINARY:
            return "np.asarray(BINARY[%r](*np.broadcast_arrays(%s)))" % (op, ", ".join(args))
        raise ProgramError("%s:%d: no op named '%s'" % (self.path, s.line, op))

    def check_size(self, s):
        """Refuses a value above the limit before it is allocated."""
        shapes = [self.env[self.var(t)].shape for t in s.operands if t in self.names]
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
            try:
                self.check_size(s)
                code = self.expression(s)
                if s.op != "assert":
                    self.names[s.name] = "v%d_%s" % (k, re.sub(r"[^A-Za-z0-9_]", "_", s.name[1:]))
                    code = self.var(s.name) + " = " + code
                self.lines.append("%s  # line %d" % (code, s.line))
                exec(code, self.env)
            except (KeyError, ValueError, IndexError, TypeError) as e:
                raise ProgramError("%s:%d: %s: %s" % (self.path, s.line, s.op, e))

    def failures(self):
        return self.env["FAILURES"]

    def outputs(self):
        used = {t for s in self.statements for t in s.operands if t.startswith("%")}
        return [(s.name, self.env[self.var(s.name)]) for s in self.statements
                if s.op != "assert" and s.name not in used]

    def script(self):
        """A standalone NumPy script of the program, for a report."""
        out = ["# %s, each statement as one line of NumPy." % self.path, "import numpy as np", "",
               "PLANT = %r" % PLANT, "FAILURES = []", helpers()]
        out += [line for line in self.lines]
        out += ["print(%r, %s.dtype, %s.shape)\nprint(%s.tolist())" % (n, self.var(n),
                                                                     self.var(n), self.var(n))
                for n, _ in self.outputs()]
        out += ["for failure in FAILURES:", "    print(failure)"]
        return "\n".join(out) + "\n"


def helpers():
    """The value and op helpers of this file, as source: what a translated program runs on."""
    with open(os.path.abspath(__file__)) as f:
        text = f.read()
    return text[text.index("# ---- values"): text.index("# ---- the program")]


# ---- the protocol

def run_file(path, out, emit_to=None):
    with open(path) as f:
        text = f.read()
    program = Program(parse(text, path), path)
    program.run()
    for name, value in program.outputs():
        out.write(format_output(name, value) + "\n")
    for failure in program.failures():
        sys.stderr.write("%s:%s\n" % (path, failure))
    if emit_to:
        with open(emit_to, "w") as f:
            f.write(program.script())
    return 1 if program.failures() else 0


def status_of(path, out, emit_to=None):
    try:
        with np.errstate(all="ignore"):
            return run_file(path, out, emit_to)
    except ProgramError as e:
        sys.stderr.write("%s\n" % e)
        return 2
    except OSError as e:
        sys.stderr.write("numpy_uir: %s\n" % e)
        return 2


def persistent():
    for line in sys.stdin:
        path = line.rstrip("\n")
        if not path:
            continue
        with open(path + ".out", "w") as out:
            status = status_of(path, out)
        sys.stderr.flush()
        sys.stdout.write("%d\n" % status)
        sys.stdout.flush()
    return 0


def main(argv):
    if argv[1:] == ["--persistent"]:
        return persistent()
    if len(argv) == 4 and argv[2] == "--emit":
        return status_of(argv[1], sys.stdout, argv[3])
    if len(argv) != 2 or argv[1].startswith("-"):
        sys.stderr.write(__doc__)
        return 2
    return status_of(argv[1], sys.stdout)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
