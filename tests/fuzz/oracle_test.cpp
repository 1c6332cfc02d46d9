// The property suite: every oracle as a RapidCheck property over the one generator, driven by
// RapidCheck so that a failure shrinks to a small program, printed as .uir with the RC_PARAMS
// that replay it.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "compiler/backend.h"
#include "fuzz/gen.h"
#include "fuzz/oracles.h"
#include "ir/parse.h"
#include "ir/print.h"

namespace uopc {
namespace {

Backend& tcc() {
  static std::unique_ptr<Backend> b = make_tcc_backend();
  return *b;
}

void assert_no_failure(const std::optional<Failure>& f) {
  if (f) RC_LOG() << "the " << f->oracle << " oracle failed: " << f->detail << "\n" << f->program;
  RC_ASSERT(!f);
}

RC_GTEST_PROP(Oracles, EnginesAgreeWithBoundsChecksAndCost, ()) {
  RapidCheckChoices c;
  assert_no_failure(check_engines(generate(c), tcc()));
}

RC_GTEST_PROP(Oracles, CompositesEqualPrimitives, ()) {
  RapidCheckChoices c;
  assert_no_failure(check_composites(generate(c), tcc()));
}

RC_GTEST_PROP(Oracles, PrintThenParseIsIdentity, ()) {
  RapidCheckChoices c;
  assert_no_failure(check_roundtrip(generate(c)));
}

RC_GTEST_PROP(Oracles, RuleBreakingProgramsAreRejected, ()) {
  RapidCheckChoices c;
  Program p = generate(c);
  Broken b = break_one_rule(c, p);
  assert_no_failure(check_rejected(b.text, b.rule));
}

RC_GTEST_PROP(Oracles, SimplificationIsSound, ()) {
  RapidCheckChoices c;
  assert_no_failure(check_symbolic(c));
}

// The byte driver: any bytes make a valid program, and the same bytes the same program.
RC_GTEST_PROP(Oracles, BytesMakeValidPrograms, (const std::vector<uint8_t>& bytes)) {
  BytesChoices a(bytes.data(), bytes.size()), b(bytes.data(), bytes.size());
  Program p = generate(a), q = generate(b);
  RC_ASSERT(print_program(p) == print_program(q));
  assert_no_failure(check_roundtrip(p));
}

TEST(Oracles, EmptyBytesMakeAProgram) {
  BytesChoices none(nullptr, 0);
  EXPECT_FALSE(generate(none).statements.empty());
}

// The composites alone, on pads and flips the generator may rarely combine.
TEST(Oracles, CompositesOfEveryDtypeAndLongPadding) {
  Backend& b = tcc();
  const char* programs[] = {
      "%x = buffer 12 dtype=i32\n%m = reshape %x shape=[3 4]\n%f = flip %m axes=[0 1]\n",
      "%x = buffer 12\n%m = reshape %x shape=[3 4]\n%f = flip %m axes=[1]\n%p = pad %f pads=[5 1 0 "
      "9] value=-0.0\n",
      "%x = buffer 6 dtype=bool\n%f = flip %x axes=[0]\n%p = pad %f pads=[13 2] value=true\n",
      "%x = buffer 0\n%p = pad %x pads=[2 3]\n",
      // At the largest rank: a composite must not need a rank above it for its stacks.
      "%x = buffer 256 dtype=i32\n%m = reshape %x shape=[2 2 2 2 2 2 2 2]\n"
      "%f = flip %m axes=[0 3 7]\n%p = pad %f pads=[1 0 0 0 0 2 0 0 0 0 0 0 0 0 1 1]\n",
      "%x = buffer 256\n%m = reshape %x shape=[2 2 2 2 2 2 2 2]\n%f = flip %m axes=[1 7]\n"
      "%p = pad %f pads=[0 0 0 0 0 0 0 0 0 0 0 0 0 0 3 0] value=2.5\n",
      "%x = buffer 0\n%m = reshape %x shape=[4 4 4 0 1 1 1 1]\n%f = flip %m axes=[0 1 2 4]\n",
  };
  for (const char* text : programs) {
    Program p = parse_program(text, "t.uir");
    std::optional<Failure> f = check_composites(p, b);
    EXPECT_FALSE(f) << text << (f ? f->detail : "");
  }
}

}  // namespace
}  // namespace uopc
