// The parser: both forms, line ends, comments, and a located error for every malformed line.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "ir/error.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "tests/support/run.h"

namespace uopc {
namespace {

using testing::parse;
using testing::parse_error;

struct Bad {
  std::string program;
  const char* error;  // the whole message
};

TEST(Parse, SyntaxErrorsNameLineAndColumn) {
  const Bad rows[] = {
      {"%a stack 1", "t.uir:1:4: error: expected '=' after %a"},
      {"a = stack 1", "t.uir:1:1: error: a statement starts with '%name ='"},
      {"%a =", "t.uir:1:5: error: expected an op name after '='"},
      {"%a = 3", "t.uir:1:6: error: expected an op name after '='"},
      {"% = stack 1", "t.uir:1:1: error: a name needs letters, digits, '_' or '.' after '%'"},
      {"%a = stack 1 $", "t.uir:1:14: error: unexpected '$'"},
      {"%a = stack 1 \x01", "t.uir:1:14: error: unexpected byte 0x01"},
      {"%a = stack 1 \xff\xfe", "t.uir:1:14: error: unexpected byte 0xff"},
      {std::string("%a = stack 1 \0", 14), "t.uir:1:14: error: unexpected byte 0x00"},
      {"%a = stack 1.2.3", "t.uir:1:12: error: malformed number '1.2....'"},
      {"%a = stack 1x", "t.uir:1:12: error: malformed number '1x...'"},
      {"%a = stack -", "t.uir:1:12: error: malformed number"},
      {"%a = stack 2147483648",
       "t.uir:1:12: error: integer literal 2147483648 is outside the i32 range"},
      {"%a = stack 99999999999999999999999",
       "t.uir:1:12: error: integer literal 99999999999999999999999 is outside the i32 range"},
      {"%a = stack 1e39", "t.uir:1:12: error: f32 literal 1e39 is out of range"},
      {"%a = buffer 99999999999999999999",
       "t.uir:1:13: error: integer literal 99999999999999999999 is outside the i32 range"},
      {"%a = stack 1 2\n%b = reshape %a shape=[99999999999999999999]",
       "t.uir:2:24: error: integer 99999999999999999999 is too large"},
      {"%a = stack 1 2\n%b = reshape %a shape=[2", "t.uir:2:25: error: missing ']' in shape=[...]"},
      {"%a = stack 1 2\n%b = reshape %a shape=",
       "t.uir:2:23: error: expected a value after shape="},
      {"%a = stack 1 2\n%b = reshape %a shape=[x]",
       "t.uir:2:24: error: expected an integer, got 'x'"},
      {"%a = stack 1 2\n%b = reshape %a, (2", "t.uir:2:20: error: missing ')'"},
      {"%a = stack 1 2\n%b = reshape %a, (2 2)",
       "t.uir:2:21: error: expected ',' or ')' in a tuple"},
      {"%a = stack 1 2\n%b = reshape %a, ((2, 1), 2)",
       "t.uir:2:27: error: a tuple mixes integers and tuples"},
      {"%a = stack 1 2\n%b = reshape %a, ((2, 1))", "t.uir:2:18: error: shape takes a flat tuple"},
      {"%a = stack 1 2\n%b = reshape %a : 3", "t.uir:2:19: error: expected key=value after ':'"},
      {"%a = stack 1 2\n%b = reshape %a, (2,) shape=[2]", "t.uir:2:18: error: give shape once"},
      {"%a = stack 1 2\n%b = shrink %a, (0, 2)",
       "t.uir:2:17: error: shrink takes a tuple of pairs, like ((0, 2), (1, 3))"},
      {"%a = stack 1 2\n%b = shrink %a, ((0, 1, 2),)",
       "t.uir:2:17: error: shrink takes a tuple of pairs, like ((0, 2), (1, 3))"},
      {"%a = stack 1 2\n%b = reduce %a op=3", "t.uir:2:16: error: op takes a word"},
      {"%a = stack 1 2\n%b = reduce %a op=add pop=x", "t.uir:2:23: error: pop takes an integer"},
      {"%a = stack 1 2\n%b = reduce %a op=add pop=99999999999",
       "t.uir:2:23: error: pop=99999999999 is not an integer in range"},
      {"%a = stack 1 2\n%b = neg %a (", "t.uir:2:14: error: missing ')'"},
      {"%a = stack 1 2\n%b = neg %a )", "t.uir:2:13: error: unexpected ')'"},
      {"%a = stack 1 2\n%b = neg %a 1", "t.uir:2:13: error: neg takes 1 operand, got 2"},
      {"%a = buffer 4 slot=-1", "t.uir:1:6: error: buffer: slot -1 is out of range"},
  };
  for (const Bad& b : rows) EXPECT_EQ(parse_error(b.program), b.error) << b.program;
}

TEST(Parse, CommentsBlankLinesAndCrlf) {
  const char* lf = "# a comment\n\n%a = stack 1 2 # trailing\n   \n%b = neg %a\n";
  const char* crlf = "# a comment\r\n\r\n%a = stack 1 2 # trailing\r\n   \r\n%b = neg %a\r\n";
  EXPECT_TRUE(same_graph(parse(lf), parse(crlf)));
  Program p = parse(crlf);
  ASSERT_EQ(p.statements.size(), 2u);
  EXPECT_EQ(p.statements[1].line, 5);
  EXPECT_EQ(parse_error("%a = stack 1\r\n%b = nope %a\r\n"), "t.uir:2:6: error: unknown op 'nope'");
}

// A byte order mark is skipped at the start of a file, with columns counted after it, and is
// an error anywhere else.
TEST(Parse, AByteOrderMarkStartsAFile) {
  const char* bom = "\xEF\xBB\xBF# saved by Notepad\r\n%a = stack 1 2\r\n%b = neg %a\r\n";
  EXPECT_TRUE(same_graph(parse(bom), parse("%a = stack 1 2\n%b = neg %a\n")));
  EXPECT_EQ(parse_error("\xEF\xBB\xBF%a = nope"), "t.uir:1:6: error: unknown op 'nope'");
  EXPECT_EQ(parse_error("%a = stack 1\n\xEF\xBB\xBF%b = neg %a"),
            "t.uir:2:1: error: unexpected byte 0xef");
}

TEST(Parse, NoTrailingNewlineAndEmptyProgram) {
  EXPECT_EQ(parse("%a = stack 1").statements.size(), 1u);
  EXPECT_EQ(parse("").statements.size(), 0u);
  EXPECT_EQ(parse("\n\n# nothing\n").statements.size(), 0u);
}

TEST(Parse, NamesMayHoldDotsAndDigits) {
  Program p = parse("%x.1_a = stack 1\n%2 = neg %x.1_a");
  EXPECT_EQ(p.outputs().at(0)->name, "%2");
}

// Book-form statements and their canonical equivalents build the same nodes.
TEST(Parse, BookFormMatchesCanonical) {
  const std::pair<const char*, const char*> rows[] = {
      {"%0 = buffer 12 : dtype=f32 slot=0\n%1 = reshape %0, (3, 4)",
       "%0 = buffer 12 dtype=f32 slot=0\n%1 = reshape %0 shape=[3 4]"},
      {"%0 = buffer 12\n%1 = reshape %0, (3, 4)\n%2 = shrink %1, ((0, 2), (1, 4))",
       "%0 = buffer 12\n%1 = reshape %0 shape=[3 4]\n%2 = shrink %1 0 1 shape=[2 3]"},
      {"%0 = buffer 12\n%1 = reshape %0, (3, 4)\n%2 = permute %1, (1, 0)",
       "%0 = buffer 12\n%1 = reshape %0 shape=[3 4]\n%2 = permute %1 order=[1 0]"},
      {"%0 = buffer 4\n%1 = reshape %0, (4, 1)\n%2 = expand %1, (4, 3,)",
       "%0 = buffer 4\n%1 = reshape %0 shape=[4 1]\n%2 = expand %1 shape=[4 3]"},
      {"%0 = buffer 4\n%1 = pad %0, ((1, 2),)", "%0 = buffer 4\n%1 = pad %0 pads=[1 2]"},
      {"%0 = buffer 4\n%1 = flip %0, (0,)", "%0 = buffer 4\n%1 = flip %0 axes=[0]"},
      {"%0 = buffer 4\n%1 = mul %0, %0", "%0 = buffer 4\n%1 = mul %0 %0"},
      {"%0 = reshape 0.0, (1,)", "%0 = reshape 0.0 shape=[1]"},
      {"%0 = buffer 4\n%1 = cast %0 : dtype=i32", "%0 = buffer 4\n%1 = cast %0 dtype=i32"},
      // book reduce folds the trailing axes: a permute to the front, then a canonical reduce
      {"%0 = buffer 24\n%1 = reshape %0, (2, 3, 4)\n%2 = reduce %1 : op=add pop=1",
       "%0 = buffer 24\n%1 = reshape %0 shape=[2 3 4]\n%p = permute %1 order=[2 0 1]\n%2 = reduce "
       "%p op=add pop=1"},
      {"%0 = buffer 24\n%1 = reshape %0, (2, 3, 4)\n%2 = reduce %1 : op=max pop=2",
       "%0 = buffer 24\n%1 = reshape %0 shape=[2 3 4]\n%p = permute %1 order=[1 2 0]\n%2 = reduce "
       "%p op=max pop=2"},
  };
  for (const auto& [book, canonical] : rows) {
    EXPECT_TRUE(same_graph(parse(book), parse(canonical))) << book << "\nvs\n" << canonical;
  }
}

TEST(Parse, LargeProgramsParse) {
  std::string text = "%v0 = stack 1 2 3 4\n";
  for (int i = 1; i < 100000; ++i)
    text += "%v" + std::to_string(i) + " = add %v" + std::to_string(i - 1) + " 1\n";
  Program p = parse(text);
  EXPECT_EQ(p.statements.size(), 100000u);
  EXPECT_TRUE(same_graph(parse(print_program(p)), p));
}

// Whatever the bytes, parsing either succeeds or throws a located UserError.
RC_GTEST_PROP(Parse, ArbitraryBytesNeverCrash, (const std::string& junk)) {
  try {
    parse_program(junk, "junk.uir");
  } catch (const UserError& e) {
    RC_ASSERT(std::string(e.what()).rfind("junk.uir:", 0) == 0);
  }
}

// Valid programs with a few bytes overwritten: the same guarantee, closer to real mistakes.
RC_GTEST_PROP(Parse, MutatedProgramsNeverCrash, ()) {
  std::string text =
      "%0 = buffer 12 : dtype=f32 slot=0\n%1 = reshape %0, (3, 4)\n"
      "%2 = shrink %1 1 0 shape=[2 4]\n%3 = pad %2 pads=[1 0 0 2] value=-0.5\n"
      "%4 = reduce %3 op=max pop=1\n%5 = where true %4 1e3\n%ok = assert %5 %5\n";
  const std::string alphabet = "%=[](),: -.0123456789aefinrtx#\n\r\t";
  int edits = *rc::gen::inRange(1, 6);
  for (int i = 0; i < edits; ++i) {
    size_t at = *rc::gen::inRange<size_t>(0, text.size());
    char c = alphabet[*rc::gen::inRange<size_t>(0, alphabet.size())];
    if (*rc::gen::arbitrary<bool>())
      text.insert(text.begin() + at, c);
    else if (at < text.size())
      text[at] = c;
  }
  try {
    parse_program(text, "m.uir");
  } catch (const UserError& e) {
    RC_ASSERT(std::string(e.what()).rfind("m.uir:", 0) == 0);
  }
}

}  // namespace
}  // namespace uopc
