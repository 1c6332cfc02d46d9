// Steering the generator: the checker names each kind of violation on hand-written programs,
// and every driver of the one generator (seeded PRNG, RapidCheck, bytes) makes only programs
// that keep to the steering asked for, without becoming trivial.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <random>

#include "fuzz/gen.h"
#include "ir/error.h"
#include "ir/print.h"
#include "tests/support/run.h"

namespace uopc {
namespace {

Steering steer(const std::vector<std::string>& words) {
  return parse_steering(words);
}

struct Case {
  const char* program;
  std::vector<std::string> flags;
  const char* violation;  // a part of the message; "" when the program keeps to the flags
};

const Case kCases[] = {
    {"%x = buffer 4\n%y = flip %x axes=[0]\n", {"--exclude-ops", "flip"}, "flip is excluded"},
    {"%x = buffer 4\n%y = flip %x axes=[0]\n", {"--ops=buffer,reshape"}, "flip is not among"},
    {"%x = buffer 4\n%y = flip %x axes=[0]\n", {"--ops=buffer,flip"}, ""},
    {"%x = buffer 4\n", {"--dtypes", "i32,bool"}, "of dtype f32"},
    {"%x = buffer 4\n%y = reshape %x shape=[2 2]\n", {"--max-rank", "1"}, "rank 2"},
    {"%x = buffer 4\n%y = reshape %x shape=[2 2]\n", {"--max-rank=2"}, ""},
    // Computed NaN, infinity and -0, and a literal NaN that no value shows.
    {"%a = stack 0.0 1.0\n%b = div %a 0.0\n", {"--no-nan"}, "is NaN"},
    {"%a = stack 0.0 1.0\n%b = div %a 0.0\n", {"--no-inf"}, "is infinite"},
    {"%a = stack 1.0 nan\n%b = cmplt %a 2.0\n", {"--no-nan"}, "literal is NaN"},
    {"%a = stack 0.0 1.0\n%b = neg %a\n", {"--no-signed-zero"}, "is -0"},
    {"%a = buffer 0\n%r = reduce %a op=add pop=1\n", {"--no-signed-zero"}, "is -0"},
    {"%a = stack 0.0 1.0\n%b = neg %a\n", {"--no-nan", "--no-inf"}, ""},
    // i32 beyond 2^15, and a product that wraps through a partial result.
    {"%a = stack 40000 2\n", {"--no-int-extremes"}, "beyond 2^15"},
    {"%a = stack 150 2\n%b = mul %a %a\n", {"--no-int-extremes"}, ""},
    {"%a = stack 256 256 0\n%r = reduce %a op=mul pop=1\n", {"--no-int-extremes"}, "partial"},
    {"%a = stack 9.0 4e9\n%c = cast %a dtype=i32\n", {"--no-int-extremes"}, "beyond 2^15"},
    // Division by a literal zero and by a computed one.
    {"%a = stack 7 8\n%b = idiv %a 0\n", {"--no-zero-divisor"}, "idiv divides by 0"},
    {"%a = stack 7 8\n%d = stack 1 0\n%b = mod %a %d\n", {"--no-zero-divisor"}, "mod divides"},
    {"%a = stack 7 8\n%d = stack 1 3\n%b = mod %a %d\n", {"--no-zero-divisor"}, ""},
};

TEST(Steering, NamesWhatAProgramBreaks) {
  for (const Case& c : kCases) {
    std::string why = steering_violation(testing::parse(c.program), steer(c.flags));
    if (std::string(c.violation).empty())
      EXPECT_EQ(why, "") << c.program;
    else
      EXPECT_NE(why.find(c.violation), std::string::npos) << c.program << "gave: " << why;
  }
}

TEST(Steering, FlagsReadBackAndBadOnesAreRefused) {
  Steering s = steer({"--ops", "buffer,add,reduce", "--exclude-ops=add", "--dtypes", "f32",
                      "--max-rank", "3", "--no-nan", "--no-int-extremes"});
  EXPECT_EQ(s.flags(),
            "--ops buffer,reduce,add --exclude-ops add --dtypes f32 --max-rank 3 "
            "--no-nan --no-int-extremes");
  std::vector<std::string> words;
  for (size_t at = 0, end; at < s.flags().size(); at = end + 1) {
    end = std::min(s.flags().find(' ', at), s.flags().size());
    words.push_back(s.flags().substr(at, end - at));
  }
  EXPECT_EQ(steer(words).flags(), s.flags());
  EXPECT_TRUE(Steering{}.is_default());
  EXPECT_EQ(Steering{}.flags(), "");
  std::vector<std::string> rest;
  parse_steering({"-max_total_time=5", "--no-nan", "--other"}, &rest);
  EXPECT_EQ(rest, (std::vector<std::string>{"-max_total_time=5", "--other"}));
  for (std::vector<std::string> bad : {std::vector<std::string>{"--ops", "frob"},
                                       {"--dtypes", "f64"},
                                       {"--max-rank", "0"},
                                       {"--max-rank", "9"},
                                       {"--ops", "add,mul"},
                                       {"--exclude-ops", "buffer,stack"},
                                       {"--ops"}})
    EXPECT_THROW(steer(bad), UserError) << bad[0];
}

const std::vector<std::vector<std::string>> kSteerings = {
    {"--ops", "buffer,reshape,permute,add,mul,reduce"},
    {"--exclude-ops", "pad,flip,shrink,index,stack"},
    {"--dtypes", "f32", "--no-nan", "--no-inf", "--no-signed-zero"},
    {"--dtypes", "i32", "--no-int-extremes", "--no-zero-divisor"},
    {"--max-rank", "2", "--ops", "stack,reshape,expand,where,cmplt,max,sub"},
};

void expect_kept(const Program& p, const Steering& s) {
  std::string why = steering_violation(p, s);
  if (!why.empty()) RC_LOG() << s.flags() << ": " << why << "\n" << print_program(p);
  RC_ASSERT(why.empty());
}

RC_GTEST_PROP(Steering, RapidCheckProgramsKeepToIt, ()) {
  GenOptions gen;
  gen.steering = steer(*rc::gen::elementOf(kSteerings));
  RapidCheckChoices c;
  expect_kept(generate(c, gen), gen.steering);
}

RC_GTEST_PROP(Steering, BytesProgramsKeepToIt, (const std::vector<uint8_t>& bytes)) {
  GenOptions gen;
  gen.steering = steer(*rc::gen::elementOf(kSteerings));
  BytesChoices c(bytes.data(), bytes.size());
  expect_kept(generate(c, gen), gen.steering);
}

// The seeded driver over many programs: every one keeps to the steering, and together they
// still use every op allowed and are not trivially short.
TEST(Steering, SeededProgramsKeepToItAndStayVaried) {
  for (const std::vector<std::string>& words : kSteerings) {
    GenOptions gen;
    gen.steering = steer(words);
    std::map<Op, int> seen;
    int64_t statements = 0;
    const int kPrograms = 300;
    for (uint64_t seed = 1; seed <= kPrograms; ++seed) {
      RandomChoices c(seed);
      Program p = generate(c, gen);
      ASSERT_EQ(steering_violation(p, gen.steering), "") << print_program(p);
      statements += static_cast<int64_t>(p.statements.size());
      for (const UOp* n : topo_order(p.roots())) ++seen[n->op];
    }
    EXPECT_GE(statements, 3 * kPrograms) << gen.steering.flags();
    for (Op op : gen.steering.ops) EXPECT_GT(seen[op], 0) << op_name(op) << " never drawn";
  }
}

TEST(Steering, CampaignsRecordItAndRefuseBadFlags) {
  auto c = testing::run_uopc("fuzz --replay 4 --ops buffer,reshape,sin,exp2 --no-nan");
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  Program p = testing::parse(c.out);
  EXPECT_EQ(steering_violation(p, steer({"--ops=buffer,reshape,sin,exp2"})), "") << c.out;
  auto bad = testing::run_uopc("fuzz --seconds 1 --ops buffer,frob");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("no op named 'frob'"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace uopc
