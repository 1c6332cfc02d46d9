// The printer: parse(print(g)) is g, for every acceptance case and for random graphs.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <filesystem>

#include "fuzz/gen.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "tests/support/run.h"

namespace uopc {
namespace {

using testing::parse;

TEST(Print, CanonicalText) {
  Program p = parse(
      "%0 = buffer 6 : dtype=i32 slot=2\n%1 = reshape %0, (2, 3)\n%2 = pad %1 pads=[0 1 1 0] "
      "value=-3\n"
      "%3 = add %2 1\n%4 = reduce %3 op=min pop=1\n%f = stack 1 -0.0 inf nan 1e10 0.1\n"
      "%ok = assert %f %f\n");
  EXPECT_EQ(print_program(p),
            "%0 = buffer 6 dtype=i32 slot=2\n"
            "%1 = reshape %0 shape=[2 3]\n"
            "%2 = pad %1 pads=[0 1 1 0] value=-3\n"
            "%3 = add %2 1\n"
            "%f = stack 1.0 -0.0 inf nan 1e+10 0.1\n"
            "%4 = reduce %3 op=min pop=1\n"
            "%ok = assert %f %f\n");
}

// A literal broadcast into an elementwise op or an assert prints as that operand, as it is
// written; one that something else reads, whose shape nothing else gives, or that is expanded
// to a scalar (which a bare literal would not parse back to), stays a statement.
TEST(Print, BroadcastLiteralsPrintAsOperands) {
  std::string written =
      "%a = buffer 8 dtype=i32 slot=0\n%r = reshape %a shape=[2 4]\n%b = max %r 0\n"
      "%c = where true %b 3\n%ok = assert %c 1\n";
  EXPECT_EQ(print_program(parse(written)), written);
  Program p = parse(
      "%z = expand 0.0 shape=[2 3]\n%s = reduce %z op=add pop=1\n%t = add %s 1.0\n"
      "%u = expand 2 shape=[3]\n%v = neg %u\n%y = buffer 1 dtype=i32\n%q = reshape %y shape=[]\n"
      "%e = expand 3 shape=[]\n%w = add %e %q\n");
  std::string text = print_program(p);
  EXPECT_NE(text.find("%z = expand 0.0 shape=[2 3]"), std::string::npos) << text;
  EXPECT_NE(text.find("%t = add %s 1.0"), std::string::npos) << text;
  EXPECT_NE(text.find("%u = expand 2 shape=[3]"), std::string::npos) << text;
  EXPECT_NE(text.find("expand 3 shape=[]"), std::string::npos) << text;  // a bare 3 is no expand
  EXPECT_TRUE(same_graph(parse(text), p)) << text;
}

// An output whose node another statement also uses keeps its name and its place.
TEST(Print, DuplicateStatementsKeepTheirOutputs) {
  Program p = parse("%x = stack 1 2\n%a = neg %x\n%b = neg %x\n%c = add %b 1\n");
  Program q = parse(print_program(p));
  EXPECT_TRUE(same_graph(p, q)) << print_program(p);
  ASSERT_EQ(q.outputs().size(), 2u);
  EXPECT_EQ(q.outputs()[0]->name, "%a");
  EXPECT_EQ(q.outputs()[1]->name, "%c");
}

TEST(Print, EveryCaseRoundTrips) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(UOPC_CASES_DIR)) {
    std::string path = entry.path().string();
    if (entry.path().filename().string().rfind("err_", 0) == 0) continue;
    Program p = parse_program(testing::read_file(path), path);
    std::string text = print_program(p);
    EXPECT_TRUE(same_graph(parse(text), p)) << path << "\n" << text;
    EXPECT_EQ(print_program(parse(text)), text) << path;  // printing is a fixpoint
    ++count;
  }
  EXPECT_GT(count, 10);
}

RC_GTEST_PROP(Print, ParsePrintIsIdentity, ()) {
  RapidCheckChoices choices;
  Program p = generate(choices);
  std::string text = print_program(p);
  RC_LOG() << text;
  Program q = parse_program(text, "printed.uir");
  RC_ASSERT(same_graph(p, q));
}

}  // namespace
}  // namespace uopc
