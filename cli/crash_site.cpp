#include "cli/crash_site.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unwind.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstring>

#include "compiler/engine.h"

// The handler runs in a process that has just crashed, perhaps inside malloc: it calls only
// system calls and functions that allocate nothing (the unwinder, which C++ exceptions use
// too), and reads the executable's own symbol table, which the dynamic symbols
// dladdr sees leave out (functions of anonymous namespaces among them).
namespace {

uintptr_t g_load_bias = 0;  // where the executable's addresses start in this process
pid_t g_owner = 0;          // the process that installed the reporter
char* g_into = nullptr;     // where the site goes instead of stderr
size_t g_into_size = 0;

int first_object(dl_phdr_info* info, size_t, void*) {
  g_load_bias = info->dlpi_addr;  // the executable comes first
  return 1;
}

struct Symbols {
  const Elf64_Sym* syms = nullptr;
  size_t count = 0;
  const char* names = nullptr;
};

bool read_symbols(Symbols* out) {
  int fd = ::open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  void* map = ::fstat(fd, &st) == 0
                  ? ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0)
                  : MAP_FAILED;
  ::close(fd);
  if (map == MAP_FAILED || static_cast<size_t>(st.st_size) < sizeof(Elf64_Ehdr)) return false;
  const char* base = static_cast<const char*>(map);
  const auto* header = reinterpret_cast<const Elf64_Ehdr*>(base);
  if (std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64)
    return false;
  const auto* sections = reinterpret_cast<const Elf64_Shdr*>(base + header->e_shoff);
  for (int i = 0; i < header->e_shnum; ++i) {
    if (sections[i].sh_type != SHT_SYMTAB) continue;
    out->syms = reinterpret_cast<const Elf64_Sym*>(base + sections[i].sh_offset);
    out->count = sections[i].sh_size / sizeof(Elf64_Sym);
    out->names = base + sections[sections[i].sh_link].sh_offset;
    return true;
  }
  return false;
}

const char* function_at(const Symbols& t, uintptr_t address) {
  for (size_t i = 0; i < t.count; ++i) {
    const Elf64_Sym& s = t.syms[i];
    if (ELF64_ST_TYPE(s.st_info) == STT_FUNC && s.st_value <= address &&
        address < s.st_value + s.st_size)
      return t.names + s.st_name;
  }
  return nullptr;
}

// A function of namespace uopc, a member of one of its classes, or a lambda inside either.
bool is_uopc(const char* symbol) {
  for (const char* prefix : {"_ZN4uopc", "_ZNK4uopc", "_ZZN4uopc", "_ZZNK4uopc"})
    if (std::strncmp(symbol, prefix, std::strlen(prefix)) == 0) return true;
  return false;
}

void say(const char* text) {
  ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

struct Frames {
  uintptr_t pcs[64];
  int count = 0;
};

_Unwind_Reason_Code add_frame(_Unwind_Context* context, void* frames) {
  auto* f = static_cast<Frames*>(frames);
  if (f->count == 64) return _URC_END_OF_STACK;
  f->pcs[f->count++] = _Unwind_GetIP(context);
  return _URC_NO_REASON;
}

void report_site(int sig) {
  if (uopc::in_compiled_kernel() || ::getpid() != g_owner) return;
  Frames frames;
  _Unwind_Backtrace(add_frame, &frames);
  Symbols symbols;
  if (!read_symbols(&symbols)) return;
  for (int i = 0; i < frames.count; ++i) {
    // A return address is one past its call; the call is in the caller's function.
    const char* name = function_at(symbols, frames.pcs[i] - g_load_bias - 1);
    if (!name || !is_uopc(name)) continue;
    if (g_into) {
      size_t n = std::min(std::strlen(name), g_into_size - 1);
      std::memcpy(g_into, name, n);
      g_into[n] = '\0';
      return;
    }
    char number[4] = {static_cast<char>('0' + sig / 10 % 10), static_cast<char>('0' + sig % 10)};
    say("uopc: fatal signal ");
    say(sig < 10 ? number + 1 : number);
    say(" in uopc's own code; crash site: ");
    say(name);
    say("\n");
    return;
  }
}

void on_fatal_signal(int sig) {
  report_site(sig);
  // SA_RESETHAND put the default action back: dying of the signal is what the caller sees.
  ::raise(sig);
}

}  // namespace

namespace uopc::cli {

bool crash_site_reporting_built() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
  return false;
#endif
#endif
  return true;
}

void install_crash_site_reporter(char* into, size_t size) {
  if (!crash_site_reporting_built()) return;
  g_owner = ::getpid();
  g_into = size > 0 ? into : nullptr;
  g_into_size = size;
  if (g_into) g_into[0] = '\0';
  ::dl_iterate_phdr(first_object, nullptr);
  // A stack overflow leaves no stack for the handler but this one.
  static char alternate[64 * 1024];
  stack_t stack{};
  stack.ss_sp = alternate;
  stack.ss_size = sizeof alternate;
  ::sigaltstack(&stack, nullptr);
  struct sigaction action {};
  action.sa_handler = on_fatal_signal;
  action.sa_flags = SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(sig, &action, nullptr);
}

}  // namespace uopc::cli
