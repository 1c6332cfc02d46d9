#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compiler/backend.h"

extern char** environ;

namespace uopc {
namespace {

// gcc's optimizer is superlinear in the size of a function: at -O3 a 1000-deep pad of a pad
// (100 KB of C) takes it 15 s in backward jump threading, and a 10^5-operation kernel takes
// minutes or crashes cc1. Larger sources get a lower level, the first whose bound they exceed;
// the results are the same bits at any level, since nothing reassociates or contracts.
struct Level {
  size_t above;  // bytes of source
  const char* flag;
};
constexpr Level kLevels[] = {{size_t{256} << 10, "-O0"}, {size_t{64} << 10, "-O1"}};
const std::vector<std::string> kFlags = {
    "-O3", "-march=native", "-shared", "-fPIC", "-ffp-contract=off", "-fno-fast-math", "-w"};

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

std::string cache_dir() {
  std::string dir = env_or("UOPC_CACHE_DIR", "");
  if (!dir.empty()) return dir;
  std::string base = env_or("XDG_CACHE_HOME", env_or("HOME", "") + "/.cache");
  if (base == "/.cache")
    throw ToolchainError("cc backend: no HOME or UOPC_CACHE_DIR for the kernel cache");
  ::mkdir(base.c_str(), 0700);
  return base + "/uopc";
}

// The directory must be ours alone: a kernel loaded from it runs with our privileges.
std::string private_dir() {
  std::string dir = cache_dir();
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    throw ToolchainError("cc backend: cannot create " + dir + ": " + std::strerror(errno));
  struct stat st;
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw ToolchainError("cc backend: " + dir + " is not a directory");
  if (st.st_uid != ::geteuid() || (st.st_mode & 077) != 0)
    throw ToolchainError("cc backend: refusing kernel cache " + dir +
                         ": it must belong to this user with mode 0700");
  return dir;
}

// Runs argv, returns its exit status and what it wrote to stderr.
int run(const std::vector<std::string>& argv, std::string& errors) {
  std::string log = private_dir() + "/cc-XXXXXX.log";
  int fd = ::mkstemps(log.data(), 4);
  if (fd < 0)
    throw ToolchainError("cc backend: cannot create a log file: " +
                         std::string(std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fd, 2);
  posix_spawn_file_actions_adddup2(&actions, fd, 1);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  if (rc == 0) ::waitpid(pid, &status, 0);
  std::FILE* f = ::fdopen(fd, "r");
  std::fseek(f, 0, SEEK_SET);
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) errors.append(buf, n);
  std::fclose(f);
  ::unlink(log.c_str());
  if (rc != 0) {
    errors = "cannot run " + argv[0] + ": " + std::strerror(rc);
    return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class SharedObject : public Module {
 public:
  explicit SharedObject(const std::string& path)
      : handle_(::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    if (!handle_) throw ToolchainError(std::string("cc backend: dlopen failed: ") + ::dlerror());
  }
  ~SharedObject() override { ::dlclose(handle_); }
  KernelFn get(const std::string& name) override {
    void* f = ::dlsym(handle_, name.c_str());
    if (!f) throw ToolchainError("cc backend: no kernel " + name);
    return reinterpret_cast<KernelFn>(f);
  }

 private:
  void* handle_;
};

class CcBackend : public Backend {
 public:
  std::unique_ptr<Module> compile(const std::string& source) override {
    std::string cc = env_or("CC", "cc");
    std::vector<std::string> flags = kFlags;
    for (const Level& l : kLevels)
      if (source.size() > l.above) {
        flags[0] = l.flag;
        break;
      }
    // Extra flags, e.g. sanitizers: UOPC_CFLAGS="-fsanitize=address,undefined".
    std::string extra = env_or("UOPC_CFLAGS", "");
    for (size_t at = 0; at < extra.size();) {
      size_t stop = extra.find(' ', at);
      if (stop == std::string::npos) stop = extra.size();
      if (stop > at) flags.push_back(extra.substr(at, stop - at));
      at = stop + 1;
    }
    std::string key = cc;
    for (const std::string& f : flags) key += " " + f;
    key += "\n" + source;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx",
                  static_cast<unsigned long long>(XXH3_64bits(key.data(), key.size())));
    std::string dir = private_dir();
    std::string object = dir + "/k-" + hex + ".so";
    if (::access(object.c_str(), R_OK) != 0) build(cc, flags, source, dir, object);
    return std::make_unique<SharedObject>(object);
  }

 private:
  // Written under temporary names and renamed into place, so a reader never sees half a file.
  static void build(const std::string& cc, const std::vector<std::string>& flags,
                    const std::string& source, const std::string& dir, const std::string& object) {
    std::string src = dir + "/src-XXXXXX.c", tmp = dir + "/obj-XXXXXX.so";
    int sfd = ::mkstemps(src.data(), 2), ofd = ::mkstemps(tmp.data(), 3);
    if (sfd < 0 || ofd < 0) throw ToolchainError("cc backend: cannot create files in " + dir);
    ::close(ofd);
    bool wrote = ::write(sfd, source.data(), source.size()) == static_cast<ssize_t>(source.size());
    ::close(sfd);
    if (!wrote) throw ToolchainError("cc backend: cannot write " + src);
    std::vector<std::string> argv{cc};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {"-o", tmp, src, "-lm"});
    std::string errors;
    int status = run(argv, errors);
    ::unlink(src.c_str());
    if (status != 0) {
      ::unlink(tmp.c_str());
      throw ToolchainError(cc + " failed (exit " + std::to_string(status) + "):\n" + errors);
    }
    if (::rename(tmp.c_str(), object.c_str()) != 0)
      throw ToolchainError("cc backend: cannot rename " + tmp + ": " + std::strerror(errno));
  }
};

}  // namespace

std::unique_ptr<Backend> make_cc_backend() {
  return std::make_unique<CcBackend>();
}

std::unique_ptr<Backend> make_backend(const std::string& name) {
  if (name == "cc") return make_cc_backend();
  if (name == "tcc") return make_tcc_backend();
  return nullptr;
}

}  // namespace uopc
