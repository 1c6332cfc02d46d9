#include "cli/crash_site.h"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>

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

// A campaign's worker writes the bare symbol into memory its driver shares, and says nothing;
// a process it forked (a candidate judged apart) writes nothing there.
TEST(CrashSite, AWorkerWritesItsSiteWhereItsDriverReadsIt) {
  if (!crash_site_reporting_built()) GTEST_SKIP() << "the sanitizers report crashes here";
  constexpr size_t kSize = 512;
  void* shared = ::mmap(nullptr, kSize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(shared, MAP_FAILED);
  char* site = static_cast<char*>(shared);
  EXPECT_EXIT(
      {
        install_crash_site_reporter(site, kSize);
        dies_in_a_pass(SIGSEGV);
      },
      ::testing::KilledBySignal(SIGSEGV), "^$");
  EXPECT_STREQ(site, "_ZN4uopc3cli12_GLOBAL__N_114dies_in_a_passEi");
  EXPECT_EXIT(
      {
        install_crash_site_reporter(site, kSize);
        if (::fork() == 0) dies_in_a_pass(SIGSEGV);
        int status = 0;
        ::wait(&status);
        std::exit(WIFSIGNALED(status) ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
  EXPECT_STREQ(site, "");
  ::munmap(shared, kSize);
}

}  // namespace
}  // namespace uopc::cli
