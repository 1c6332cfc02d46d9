#!/usr/bin/env python3
"""Plausible mistakes in uopc's own code, one at a time, and what a campaign makes of each.

Each mutant is one small edit of a source file (a bound off by one, a sign, a dropped check,
a wrong corner of an interval). For each, in a scratch worktree of HEAD, the edit is applied,
`uopc` rebuilt, and `uopc fuzz --seconds S --jobs 2 --minimize --corpus DIR` run; the table
gives the files the campaign leaves (one bug should leave one), their signatures and the
statements of each reproducer (0 for a symbolic oracle's expression). A mutant that leaves no
file may be equivalent (it never changes a value: noted below where known).

Usage: bench/mutants.py [SECONDS] [NAME...]   (default 20 s each, every mutant)
"""
import glob
import os
import subprocess
import sys
import tempfile

# name, file, text, replacement, note
MUTANTS = [
    ("compare_touching", "compiler/symbolic.cpp", "if (x.hi < y.lo || (planted(",
     "if (x.hi <= y.lo || (planted(", "a < b decided true when the intervals touch"),
    ("divmod_bounds_sign", "compiler/symbolic.cpp", "add(n->src[0], i32(-k * c))",
     "add(n->src[0], i32(k * c))", "x % c -> x + k*c instead of x - k*c"),
    ("minmax_overlap", "compiler/symbolic.cpp",
     "if (a->bounds.lo >= b->bounds.hi) return max ? a : b;",
     "if (a->bounds.hi >= b->bounds.lo) return max ? a : b;", "max(a, b) -> a when they overlap"),
    ("mod_mod_divides_wrong", "compiler/symbolic.cpp",
     "if (a == 0 || a % b != 0) return nullptr;\n  return alu(Op::Mod",
     "if (a == 0 || b % a != 0) return nullptr;\n  return alu(Op::Mod",
     "equivalent: divmod_by_bounds rewrites every such (x % a) % b first"),
    ("fold_divmod_any_coef", "compiler/symbolic.cpp",
     "if (kq != kr * static_cast<uint32_t>(c)) continue;", "if (kq == 0) continue;",
     "(x // c) * k1 + (x % c) * k2 -> x * k2 whatever k1"),
    ("interval_max_hi_min", "ir/interval.cpp",
     "return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};",
     "return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)};", "max's interval ends at the lower high"),
    ("interval_idiv_trunc", "ir/interval.cpp", "return {floor_div(a.lo, c), floor_div(a.hi, c)};",
     "return {a.lo / c, a.hi / c};", "idiv's interval truncates"),
    ("interval_mul_two_corners", "ir/interval.cpp",
     "return wrap_i32({*std::min_element(p, p + 4), *std::max_element(p, p + 4)});",
     "return wrap_i32({p[0], p[3]});", "mul's interval from two corners"),
    ("reduce_add_interval_lo", "ir/build.cpp", "return wrap_i32({b.lo * popped, b.hi * popped});",
     "return wrap_i32({b.lo, b.hi * popped});", "a sum's interval keeps one element's low"),
    ("mod_interval_shift", "ir/interval.cpp",
     "if (floor_div(a.hi, c) == k) return {a.lo - k * c, a.hi - k * c};",
     "if (floor_div(a.hi, c) == k) return {a.lo - k * c, a.hi - k * c + 1};",
     "equivalent: one wider than needed, still sound"),
    ("pad_clamp_past_end", "compiler/rangeify.cpp", "i32(in[k] - 1)}));\n  }", "i32(in[k])}));\n  }",
     "a pad's clamp lets the index reach one past the data"),
    ("stack_select_off_by_one", "compiler/rangeify.cpp", "i32(static_cast<int64_t>(k) + 1)",
     "i32(static_cast<int64_t>(k))", "a stack selects operand k at i < k"),
    ("rangeify_index_order", "compiler/rangeify.cpp", "in.insert(in.end(), idx.begin(), idx.end());",
     "in.insert(in.begin(), idx.begin(), idx.end());", "index's own indices after the axes'"),
    ("unroll_no_divide_check", "compiler/rangeify.cpp",
     "u.src[0]->shape[static_cast<size_t>(u.pop() - 1)] % f != 0",
     "u.src[0]->shape[static_cast<size_t>(u.pop() - 1)] < f", "unroll an axis it does not divide"),
    ("split_index_const_base", "compiler/rangeify.cpp", "if (base->op == Op::Const) return i32(c);",
     "if (base->op == Op::Const) return i32(c + base->value.as_i32());",
     "equivalent: the constant base is always 0"),
    ("mul_overflow_two_corners", "compiler/c_arith.cpp",
     "return fits(*std::min_element(p, p + 4), *std::max_element(p, p + 4));",
     "return fits(p[0], p[3]);", "a product is plain C when two corners fit"),
    ("division_floor_hi", "compiler/c_arith.cpp", "return a.lo >= 0 || planted",
     "return a.hi >= 0 || planted", "C's / floors when the dividend's high is >= 0"),
    ("neg_overflow_decision", "compiler/c_arith.cpp", "return a.lo > INT32_MIN;",
     "return a.lo >= INT32_MIN;", "nearly equivalent: the simplifier turns -x into x * -1"),
    ("f2i_plain", "compiler/render_c.cpp",
     "bool saturate = from == DType::F32 && !planted(Plant::CastF32Unsaturated);",
     "bool saturate = false;", "f32 -> i32 as C's cast, undefined out of range"),
    ("interp_pad_sides", "interp/movement.cpp",
     "widths.push_back({static_cast<size_t>(pads[k]), static_cast<size_t>(pads[k + 1])});",
     "widths.push_back({static_cast<size_t>(pads[k + 1]), static_cast<size_t>(pads[k])});",
     "the interpreter pads the other side"),
    ("sem_mod_sign", "ir/semantics.h", "if (r != 0 && ((r < 0) != (b < 0))) r += b;",
     "if (r < 0) r += b;", "floor mod as if every divisor were positive"),
    ("print_f32_short", "ir/scalar.cpp", ": std::to_chars(buf, buf + sizeof buf, v);",
     ": std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 6);",
     "the printer keeps six significant digits"),
    ("reduce_thread_parts", "compiler/rangeify.cpp",
     "(demanded > u->numel() || outside_threads ||", "(demanded > u->numel() ||",
     "a reduce outside the thread loop is computed in each thread's part"),
    ("reduce_demand_unchecked", "compiler/rangeify.cpp",
     "(demanded > u->numel() || outside_threads ||", "(outside_threads ||",
     "a reduce asked for more often than it has elements is computed inline"),
    ("block_loop_not_around", "compiler/rangeify.cpp",
     "if (blocked && std::find(outside.begin(), outside.end(), ctx.block_loop) == outside.end())",
     "if (false)", "a blocked reduce's loops are not counted as inside its block loop"),
    ("f32_to_bool_positive", "compiler/render_c.cpp", '"(" + x + "!=0.0f)"', '"(" + x + ">0.0f)"',
     "a cast of f32 to bool tests x > 0"),
    ("interp_shrink_no_offset", "interp/movement.cpp",
     "window.push_back(xt::range(offsets[k], offsets[k] + shape[k]));",
     "window.push_back(xt::range(0, shape[k]));", "the interpreter's shrink ignores its offsets"),
    ("interp_flip_first_axis", "interp/movement.cpp",
     "for (int64_t axis : axes) out = A(xt::flip(out, static_cast<size_t>(axis)));",
     "if (!axes.empty()) out = A(xt::flip(out, static_cast<size_t>(axes[0])));",
     "the interpreter's flip reverses only its first axis"),
    ("end_keeps_ranges", "compiler/linearize.cpp",
     "if (std::none_of(n->src.begin() + 1, n->src.end(),", "if (true || std::none_of(n->src.begin() + 1, n->src.end(),",
     "an end keeps the ranges it closes in scope"),
    ("sem_max_ge", "ir/semantics.h", "T max(T a, T b) {\n  return a > b ? a : b;",
     "T max(T a, T b) {\n  return a >= b ? a : b;", "the interpreter's max keeps a on ties (+0 vs -0)"),
    ("sem_idiv_dividend_sign", "ir/semantics.h", "if (a % b != 0 && ((a < 0) != (b < 0))) --q;",
     "if (a % b != 0 && a < 0) --q;", "floor division rounds down by the dividend's sign only"),
    ("sem_f2i_bound", "ir/semantics.h", "if (a >= 2147483648.0f) return kI32Max;",
     "if (a > 2147483648.0f) return kI32Max;", "2^31 as f32 is converted, not saturated"),
    ("sem_f32_to_bool_nan", "ir/semantics.h", "return a != 0.0f;\n}",
     "return a > 0.0f || a < 0.0f;\n}", "NaN cast to bool is false in the interpreter"),
    ("c_idiv_dividend_sign", "compiler/render_c.cpp",
     '"  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\\n"',
     '"  return (a % b != 0 && a < 0) ? q - 1 : q;\\n"', "C's floor division by the dividend's sign"),
    ("c_f2i_bound", "compiler/render_c.cpp", '"  if (x >= 2147483648.0f) return 2147483647;\\n"',
     '"  if (x > 2147483648.0f) return 2147483647;\\n"', "C converts 2^31, undefined"),
    ("add_overflow_high_only", "compiler/c_arith.cpp", "return fits(a.lo + b.lo, a.hi + b.hi);",
     "return a.hi + b.hi <= INT32_MAX;", "a sum is plain C when its highest value fits"),
    ("interval_sub_same_corners", "ir/interval.cpp", "return wrap_i32({a.lo - b.hi, a.hi - b.lo});",
     "return wrap_i32({a.lo - b.lo, a.hi - b.hi});", "sub's interval from lo - lo and hi - hi"),
    ("interval_min_high_low", "ir/interval.cpp",
     "return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};",
     "return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)};", "min's interval starts at the higher low"),
    ("cmplt_false_by_lows", "compiler/symbolic.cpp", "if (x.lo >= y.hi) r = false;",
     "if (x.lo >= y.lo) r = false;", "a < b decided false when a's low reaches b's low"),
    ("or_true_keeps_x", "compiler/symbolic.cpp", "return c ? n->src[1] : n->src[0];\n}\n\n// not not",
     "return c ? n->src[0] : n->src[1];\n}\n\n// not not", "x or true -> x"),
    ("distribute_sub_as_add", "compiler/symbolic.cpp",
     "return alu(x->op, {mul(x->src[0], k), mul(x->src[1], k)});",
     "return add(mul(x->src[0], k), mul(x->src[1], k));", "(a - b) * c -> a*c + b*c"),
    ("where_decided_swapped", "compiler/symbolic.cpp",
     "return n->src[0]->value.as_bool() ? n->src[1] : n->src[2];",
     "return n->src[0]->value.as_bool() ? n->src[2] : n->src[1];", "where(true, a, b) -> b"),
    ("shrink_offset_one_past", "ir/build.cpp", "offset\", 0, x->shape[k] - shape[k],",
     "offset\", 0, x->shape[k] - shape[k] + 1,", "a shrink may start one past its last window"),
    ("flip_axis_twice", "ir/build.cpp",
     "if (std::find(seen.begin(), seen.end(), a) != seen.end())\n      fail(Op::Flip",
     "if (false)\n      fail(Op::Flip", "a flip may name an axis twice"),
    ("expand_grows_any", "ir/build.cpp", "if (x->shape[k] != shape[k] && x->shape[k] != 1 &&",
     "if (x->shape[k] > shape[k] && x->shape[k] != 1 &&", "expand grows axes of any size"),
    ("permute_repeats", "ir/build.cpp", "ok = sorted[k] == static_cast<int64_t>(k);",
     "ok = sorted[k] >= 0 && sorted[k] < x->rank();", "a permute may repeat an axis"),
    ("upcast_any_axis", "compiler/opts.cpp", "if (f > 1 && size(axis) % f == 0 && size(axis) >= f)",
     "if (f > 1 && size(axis) >= f)", "an upcast of an axis it does not divide"),
    ("interp_fold_operand_order", "interp/movement.cpp",
     "acc(i) = fold_step<T>(fold, acc(i), row(i));", "acc(i) = fold_step<T>(fold, row(i), acc(i));",
     "the interpreter folds op(x, acc), not op(acc, x)"),
    # Third round: the executor, the generic rewriter, the linearizer, constant tables and
    # constant folding, and the interpreter's casts.
    ("thread_parts_floor", "compiler/engine.cpp",
     "hi = static_cast<int>(size * (j + 1) / parts);",
     "hi = lo + static_cast<int>(size / parts);",
     "each thread runs size / parts iterations; the remainder is dropped"),
    ("refill_appends", "compiler/engine.cpp", "  buffers_.clear();\n", "",
     "refilling appends buffers, so a second run reads the first run's inputs"),
    ("rewrite_drops_later_sources", "compiler/rewrite.cpp",
     "if (src.empty() && s == node->src[k]) continue;", "if (s == node->src[k]) continue;",
     "after the first rewritten source, unchanged sources are left out of the new list"),
    ("interp_true_is_minus_one", "interp/elementwise.cpp", "return v ? To(1) : To(0);",
     "return v ? To(-1) : To(0);", "the interpreter casts true to -1"),
    ("table_clamp_short", "compiler/rangeify.cpp",
     "i32(u.numel() - 1)}));\n  return load(address(table(values), at));",
     "i32(u.numel() - 2)}));\n  return load(address(table(values), at));",
     "a constant table's index is clamped one short of its last element"),
    ("linearize_loop_deps", "compiler/linearize.cpp", "if (!dep || *dep == *mine) continue;",
     "if (!dep || *dep == *mine || items[*dep].loop) continue;",
     "equivalent: the ready queue orders by first position, which puts the loop first"),
    ("fold_bool_low_bit", "ir/eval_scalar.cpp", ": x.as_i32() != 0);", ": (x.as_i32() & 1) != 0);",
     "constant folding casts an i32 to bool by its lowest bit"),
    ("linear_sub_sign", "compiler/symbolic.cpp",
     "collect(n->src[1], planted(Plant::LinearSubAsAdd) ? k : 0u - k, out);",
     "collect(n->src[1], k, out);",
     "a - b collected as a + b in a linear form"),
    ("build_linear_sub_order", "compiler/symbolic.cpp", "? alu(Op::Sub, {t, out}) : alu(Op::Sub, {out, t});",
     "? alu(Op::Sub, {t, out}) : alu(Op::Sub, {t, out});", "a term of coefficient -1 is written t - rest"),
    ("exact_bounds_coef_sign", "compiler/symbolic.cpp",
     "    lo += std::min(a, b);\n    hi += std::max(a, b);", "    lo += a;\n    hi += b;",
     "a linear form's exact bounds ignore a negative coefficient's swap"),
    ("fold_pairs_any_x", "compiler/symbolic.cpp",
     "kr == 0 || r->src[0] != q->src[0] || positive_divisor(r)", "kr == 0 || positive_divisor(r)",
     "(x // c) * k*c + (y % c) * k -> x * k, whatever y"),
    ("divmod_split_undivided", "compiler/symbolic.cpp",
     "whole.terms.emplace_back(t, static_cast<uint32_t>(coef / c));",
     "whole.terms.emplace_back(t, static_cast<uint32_t>(coef));",
     "(a*c + b) // c -> a*c + b // c: the whole part not divided"),
    ("div_div_sum", "compiler/symbolic.cpp", "return alu(Op::Idiv, {inner->src[0], i32(a * b)});",
     "return alu(Op::Idiv, {inner->src[0], i32(a + b)});", "(x // a) // b -> x // (a + b)"),
    ("f32_equal_self", "compiler/symbolic.cpp",
     "if (a->dtype == DType::F32) return nullptr;\n  const Interval &x",
     "if (a->dtype == DType::F32 && a != b) return nullptr;\n  const Interval &x",
     "x == x -> true for f32 too (false for NaN)"),
    ("render_xor_as_or", "compiler/render_c.cpp", "case Op::Xor:\n        return bin(\"^\");",
     "case Op::Xor:\n        return bin(\"|\");", "xor rendered as C's |"),
    ("interval_neg_swapped", "ir/interval.cpp", "return wrap_i32({-a.hi, -a.lo});",
     "return wrap_i32({-a.lo, -a.hi});", "neg's interval keeps its ends in place"),
    ("stack_bounds_last", "ir/build.cpp", "for (const UOpRef& s : src) h = hull(h, s->bounds);",
     "for (const UOpRef& s : src) h = s->bounds;", "a stack's interval is its last operand's"),
    ("param_number_off_by_one", "compiler/schedule.cpp",
     "int number = static_cast<int>(k.args.size()) -",
     "int number = static_cast<int>(k.args.size()) - 1 -",
     "a kernel's parameter numbered one below its buffer argument"),
    ("interp_tree_floor_halving", "interp/movement.cpp",
     "for (size_t n = values.size(); n > 1; n = (n + 1) / 2)",
     "for (size_t n = values.size(); n > 1; n = n / 2)",
     "the interpreter's unrolled fold drops an odd element carried up"),
    ("interp_unroll_any_factor", "interp/movement.cpp",
     "in[pop - 1] % unroll == 0 ? unroll : 1", "in[pop - 1] >= unroll ? unroll : 1",
     "equivalent: the options drop an unroll that does not divide, so the interpreter never gets one"),
    ("composite_pad_before_after", "ir/composite.cpp",
     "x = shrink_axis(concat2(full_like(x->shape, value), x, axis), axis, n - take, 2 * n);",
     "x = shrink_axis(concat2(x, full_like(x->shape, value), axis), axis, n - take, 2 * n);",
     "the composite pad puts the leading fill after the data"),
    ("anti_eye_shifted", "ir/composite.cpp", "return shrink(m, {i32(0), i32(0)}, {n, n});",
     "return shrink(m, {i32(0), i32(1)}, {n, n});", "the composite flip's anti-identity one column off"),
    ("tile_not_multiple_of_upcast", "compiler/opts.cpp",
     "if (t > 1 && t < size(axis) && divides && t % f == 0)",
     "if (t > 1 && t < size(axis) && divides)", "a tile kept that its upcast does not divide"),
    ("block_any_divisor", "compiler/opts.cpp",
     "if (o.block < first && first % o.block == 0) out.block = o.block;",
     "if (o.block < first) out.block = o.block;",
     "equivalent: the lowering checks again that a block divides its axis (block_loop)"),
    ("render_where_no_parens", "compiler/render_c.cpp",
     'return "(" + s[0] + "?" + s[1] + ":" + s[2] + ")";',
     'return s[0] + "?" + s[1] + ":" + s[2];', "where rendered without parentheses"),
    ("render_neg_no_parens", "compiler/render_c.cpp", ': "(-" + s[0] + ")";', ': "-" + s[0];',
     "a plain negation rendered without parentheses"),
    ("rangeify_memo_by_node", "compiler/rangeify.cpp",
     "std::vector<const UOp*> key{u.get()};\n  for (const UOpRef& i : idx) key.push_back(i.get());",
     "std::vector<const UOp*> key{u.get()};", "rangeify remembers a value by its node, not its index"),
    ("table_f32_values", "compiler/render_c.cpp", '(f32 ? std::to_string(v.bits) + "u" :',
     '(f32 ? c_literal_text(v) :', "an f32 table's elements written as values into unsigned"),
    ("index_one_past", "ir/build.cpp", '"index " + std::to_string(k), 0, x->shape[k] - 1,',
     '"index " + std::to_string(k), 0, x->shape[k],', "an index may be one past its axis"),
]

def run(cmd, cwd, **kw):
    return subprocess.run(cmd, cwd=cwd, shell=True, capture_output=True, text=True, **kw)


def statements(path):
    with open(path) as f:
        return sum(1 for line in f if line.strip() and not line.startswith("#"))


def main():
    seconds = sys.argv[1] if len(sys.argv) > 1 else "20"
    chosen = set(sys.argv[2:])
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    scratch = tempfile.mkdtemp(prefix="uopc-mutants-")
    tree = os.path.join(scratch, "tree")
    run(f"git worktree add --detach {tree} HEAD", repo, check=True)
    try:
        run("cmake --preset default -DUOPC_BUILD_TESTS=OFF -DUOPC_BUILD_BENCH=OFF", tree, check=True)
        run("cmake --build build -j2 --target uopc", tree, check=True)
        print(f"{'mutant':26s} {'files':>5s}  signatures (statements)")
        for name, path, text, replacement, note in MUTANTS:
            if chosen and name not in chosen:
                continue
            source = os.path.join(tree, path)
            original = open(source).read()
            if original.count(text) != 1:
                print(f"{name:26s} stale: the text to change is not in {path} once")
                continue
            open(source, "w").write(original.replace(text, replacement))
            try:
                if run("cmake --build build -j2 --target uopc", tree).returncode != 0:
                    print(f"{name:26s} does not build")
                    continue
                corpus = os.path.join(scratch, name)
                run(f"build/cli/uopc fuzz --seconds {seconds} --jobs 2 --minimize --corpus {corpus}",
                    tree)
                files = sorted(glob.glob(os.path.join(corpus, "*.uir")))
                found = ", ".join(f"{os.path.basename(f)[:-4]} ({statements(f)})" for f in files)
                print(f"{name:26s} {len(files):5d}  {found or '-'}   [{note}]", flush=True)
            finally:
                open(source, "w").write(original)
    finally:
        run(f"git worktree remove --force {tree}", repo)
        run(f"rm -rf {scratch}", repo)


if __name__ == "__main__":
    main()
