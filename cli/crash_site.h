// Where uopc itself crashed, said on stderr before the process dies of the signal.
//
// A fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) raised in uopc's own code, not in a
// compiled kernel, prints one line before the process dies of it as it would have:
//
//   uopc: fatal signal 11 in uopc's own code; crash site: _ZN4uopc12_GLOBAL__N_19bounds_of...
//
// The site is the innermost function of namespace uopc on the stack, as its symbol (mangled:
// demangling allocates, which a crashed process must not do). A campaign that runs `uopc run`
// as its engine files crashes of one signal and site as one bug (docs/ENGINES.md), whichever
// op of whichever program met it; a kernel's crash says nothing here and is named by the op
// whose kernel dies.
#pragma once

#include <cstddef>

namespace uopc::cli {

// Whether this build reports crash sites: not under the sanitizers, whose own reports say more.
bool crash_site_reporting_built();

// Reports the crash sites of this process from now on, when the build does: on stderr, or
// with `into`, as the bare symbol (NUL-terminated, cut to `size`) written there instead, for
// a process that watches this one die (a campaign's driver, in memory it shares with its
// workers). Processes forked from this one report nothing.
void install_crash_site_reporter(char* into = nullptr, size_t size = 0);

}  // namespace uopc::cli
