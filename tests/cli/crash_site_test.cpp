#include "cli/crash_site.h"

#include <gtest/gtest.h>

#include <csignal>

namespace uopc::cli {
namespace {

// uopc's own code dying of a signal, as a compiler pass with a bug would.
[[gnu::noinline]] void dies_in_a_pass(int sig) {
  std::raise(sig);
  asm volatile("");  // keeps the call from becoming a jump, which leaves this frame off the stack
}

// The line names the innermost function of namespace uopc, and the process still dies of the
// signal, which is what a campaign running `uopc run` sees.
TEST(CrashSite, AFatalSignalInUopcsOwnCodeNamesItsFunction) {
  if (!crash_site_reporting_built()) GTEST_SKIP() << "the sanitizers report crashes here";
  for (int sig : {SIGSEGV, SIGFPE, SIGABRT})
    EXPECT_EXIT(
        {
          install_crash_site_reporter();
          dies_in_a_pass(sig);
        },
        ::testing::KilledBySignal(sig),
        "uopc: fatal signal [0-9]+ in uopc's own code; crash site: "
        "_ZN4uopc3cli12_GLOBAL__N_114dies_in_a_passEi\n")
        << sig;
}

}  // namespace
}  // namespace uopc::cli
