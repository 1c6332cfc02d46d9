// Kernel options: their text form, how they fit a kernel, what --opts auto picks, and that the
// loops they make compute exactly what the plain lowering computes.
#include <gtest/gtest.h>

#include "compiler/engine.h"
#include "compiler/opts.h"
#include "interp/interp.h"
#include "ir/error.h"
#include "ir/parse.h"

namespace uopc {
namespace {

TEST(Opts, TextRoundTrips) {
  for (const char* text : {"none", "upcast=0:4,1:4 unroll=4 tile=0:64 thread=0", "unroll=8:ordered",
                           "thread=2", "upcast=3:2", "block=64", "table=4"})
    EXPECT_EQ(format_opts(parse_opts(text == std::string("none") ? "" : text, "--opts")), text);
  EXPECT_EQ(format_opts_choice(parse_opts_choice("auto", "--opts")), "auto");
  EXPECT_EQ(parse_opts_choice("none", "--opts").mode, OptsChoice::Mode::None);
}

TEST(Opts, BadTextIsAUserError) {
  for (const char* text :
       {"upcast", "upcast=0", "upcast=0:0", "upcast=9:2", "unroll=x", "unroll=65", "tile=0:4,0:8",
        "speed=11", "thread=-1", "unroll=4:sideways", "table=0"}) {
    try {
      parse_opts(text, "--opts");
      ADD_FAILURE() << text << " was accepted";
    } catch (const UserError& e) {
      EXPECT_NE(std::string(e.what()).find("--opts"), std::string::npos) << e.what();
    }
  }
}

UOpRef value_of(const std::string& text) {
  static std::vector<Program> keep;
  keep.push_back(parse_program(text, "t.uir"));
  return keep.back().outputs().back()->node;
}

TEST(Opts, OnlyWhatFitsTheKernel) {
  UOpRef v = value_of("%x = buffer 24\n%y = reshape %x shape=[4 6]\n");
  Opts o = parse_opts("upcast=0:2,1:4,5:2 tile=0:2,1:3 thread=1", "--opts");
  // Upcast 1:4 does not divide 6 and axis 5 does not exist; tile 0:2 divides 4 and is a
  // multiple of its upcast; tile 1:3 divides 6.
  EXPECT_EQ(format_opts(fit_opts(o, *v)), "upcast=0:2 tile=0:2,1:3 thread=1");
  UOpRef scalar = value_of("%x = buffer 1\n%y = reshape %x shape=[]\n");
  EXPECT_TRUE(fit_opts(o, *scalar).none());
}

TEST(Opts, AutoTilesAMatmulAndUnrollsInOrder) {
  std::string gemm =
      "%a = buffer 4096\n%b = buffer 4096 slot=1\n%am = reshape %a shape=[64 64 1]\n"
      "%ap = permute %am order=[1 0 2]\n%ae = expand %ap shape=[64 64 64]\n"
      "%bm = reshape %b shape=[64 1 64]\n%be = expand %bm shape=[64 64 64]\n"
      "%p = mul %ae %be\n%c = reduce %p op=add pop=1\n";
  EXPECT_EQ(format_opts(auto_opts(*value_of(gemm))), "upcast=0:8,1:16 thread=0");
  std::string rows =
      "%x = buffer 4096\n%m = reshape %x shape=[64 64]\n%t = permute %m order=[1 0]\n"
      "%s = reduce %t op=add pop=1\n%s1 = reshape %s shape=[64 1]\n%y = sub %m %s1\n";
  EXPECT_EQ(format_opts(auto_opts(*value_of(rows))), "unroll=8:ordered thread=0");
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Copies of a register tile and of an unrolled reduce share their loops: one END per loop.
TEST(Opts, CopiesShareOneEndPerLoop) {
  std::string text =
      "%a = buffer 64\n%b = buffer 64 slot=1\n%am = reshape %a shape=[8 8 1]\n"
      "%ap = permute %am order=[1 0 2]\n%ae = expand %ap shape=[8 8 8]\n"
      "%bm = reshape %b shape=[8 1 8]\n%be = expand %bm shape=[8 8 8]\n"
      "%p = mul %ae %be\n%c = reduce %p op=add pop=1\n";
  Program p = parse_program(text, "t.uir");
  std::string lowered =
      lowered_text(compile_program(p, {}, parse_opts_choice("upcast=0:2,1:4 unroll=2", "--opts")));
  // Two output loops closed together and one reduce loop, for all eight copies.
  EXPECT_EQ(count(lowered, " = range "), 3) << lowered;
  EXPECT_EQ(count(lowered, " = end "), 2) << lowered;
}

// Every combination of options on programs with reduces of every kind: the compiled results
// equal the interpreter's, folded in the compiled order.
TEST(Opts, LoopsChangeNothingElse) {
  std::string text =
      "%x = buffer 96\n%m = reshape %x shape=[4 6 4]\n%r = reduce %m op=add pop=1\n"
      "%q = reduce %m op=max pop=2\n%t = permute %m order=[2 1 0]\n%u = reduce %t op=mul pop=1\n"
      "%q1 = reshape %q shape=[1 4]\n%s = expand %q1 shape=[6 4]\n%z = add %r %s\n"
      "%w = reduce %m op=add pop=2\n";
  Program p = parse_program(text, "t.uir");
  std::unique_ptr<Backend> tcc = make_tcc_backend();
  for (const char* opts :
       {"none", "auto", "upcast=0:2,1:2", "unroll=2", "unroll=4:ordered", "unroll=3 upcast=1:4",
        "tile=0:2,1:2", "thread=0", "thread=1 tile=1:2", "upcast=0:3 unroll=2 tile=0:3 thread=0",
        "block=2", "block=2 upcast=0:2 thread=1", "block=2 unroll=2"}) {
    for (int threads : {1, 3}) {
      CompiledProgram c = compile_program(p, {true, false}, parse_opts_choice(opts, "--opts"));
      InterpResult want = interpret(p, matching(c));
      InterpResult got = run_compiled(p, c, *tcc, {}, threads);
      ASSERT_EQ(want.outputs.size(), got.outputs.size());
      for (size_t k = 0; k < want.outputs.size(); ++k)
        EXPECT_EQ(describe_difference(want.outputs[k].second, got.outputs[k].second), "")
            << opts << " on " << threads << " threads, " << want.outputs[k].first->name;
    }
  }
}

}  // namespace
}  // namespace uopc
