#include "fuzz/target.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "ir/error.h"

namespace uopc {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kStderrLines = 10;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string last_lines(const std::string& text, int n) {
  size_t at = text.size();
  if (at > 0 && text[at - 1] == '\n') --at;
  for (int k = 0; k < n && at != std::string::npos && at > 0; ++k) at = text.rfind('\n', at - 1);
  return at == std::string::npos || at == 0 ? text : text.substr(at + 1);
}

// The process's environment with `env` set over it, as execve takes it.
std::vector<std::string> environment_with(const Environment& env) {
  std::vector<std::string> out;
  for (char** e = environ; *e; ++e) {
    std::string entry = *e;
    std::string name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const auto& kv : env) replaced |= kv.first == name;
    if (!replaced) out.push_back(entry);
  }
  for (const auto& [name, value] : env) out.push_back(name + "=" + value);
  return out;
}

// NAME=value, as the shell reads an assignment before a command.
bool is_assignment(const std::string& word) {
  size_t eq = word.find('=');
  if (eq == 0 || eq == std::string::npos || std::isdigit(static_cast<unsigned char>(word[0])))
    return false;
  return std::all_of(word.begin(), word.begin() + static_cast<std::ptrdiff_t>(eq), [](char c) {
    return c == '_' || std::isalnum(static_cast<unsigned char>(c));
  });
}

// A command of plain words, which runs without a shell (starting sh first took about a third
// of each run of a small engine): its leading NAME=value words, set in its environment, and
// the rest.
struct PlainCommand {
  Environment assignments;
  std::vector<std::string> words;
};

// nullopt when `command` has quotes, variables, redirections, globs or other syntax that only
// a shell reads.
std::optional<PlainCommand> plain_command(const std::string& command) {
  if (command.find_first_of("'\"\\$`|&;<>()*?[]{}!\n") != std::string::npos) return std::nullopt;
  PlainCommand plain;
  std::istringstream in(command);
  for (std::string w; in >> w;) {
    if (w[0] == '#' || w[0] == '~') return std::nullopt;
    if (plain.words.empty() && is_assignment(w))
      plain.assignments.emplace_back(w.substr(0, w.find('=')), w.substr(w.find('=') + 1));
    else
      plain.words.push_back(w);
  }
  if (plain.words.empty()) return std::nullopt;
  return plain;
}

// `env` with `over` set over it.
Environment overridden(Environment env, const Environment& over) {
  for (const auto& kv : over) {
    std::erase_if(env, [&](const auto& e) { return e.first == kv.first; });
    env.push_back(kv);
  }
  return env;
}

// Everything the child needs, built before it starts: a child that shares its parent's memory
// may not allocate.
struct Launch {
  const char* file;
  std::vector<const char*> argv;
  std::vector<char*> envp;
  int in, out, err;
  pid_t parent;
  sigset_t parent_mask;
  std::string not_found, not_executable;
};

// The child's side of spawn: it never returns.
[[noreturn]] void become(const Launch& l) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != l.parent) ::_exit(127);
  ::dup2(l.in, 0);
  ::dup2(l.out, 1);
  ::dup2(l.err, 2);
  // The parent's handlers must not run here, on its memory, before the exec: every signal
  // goes back to its default before the parent's mask is restored (SIGPIPE even if ignored).
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && (old.sa_handler != SIG_IGN || sig == SIGPIPE))
      ::signal(sig, SIG_DFL);
  }
  ::sigprocmask(SIG_SETMASK, &l.parent_mask, nullptr);
  ::execvpe(l.file, const_cast<char* const*>(l.argv.data()), l.envp.data());
  // As the shell answers: 127 when the command is not found, 126 when it cannot run.
  bool missing = errno == ENOENT;
  const std::string& why = missing ? l.not_found : l.not_executable;
  [[maybe_unused]] ssize_t n = ::write(2, why.data(), why.size());
  ::_exit(missing ? 127 : 126);
}

// `plain` run directly (or, when it is null, `sh -c "exec COMMAND"`) in a process group of
// its own, with the given descriptors as its stdin, stdout and stderr and `env` set in its
// environment; it is killed when the process that started it dies.
// vfork, not fork: copying the page tables of a parent with a large heap took half of each
// run of a small engine.
pid_t spawn(const std::string& command, const PlainCommand* plain, int in, int out, int err,
            const Environment& env) {
  // The shell's exec takes no assignments before the command; without it the shell waits.
  std::string first = command.substr(0, command.find_first_of(" \t"));
  std::string line = (is_assignment(first) ? "" : "exec ") + command;
  std::vector<std::string> entries =
      environment_with(plain ? overridden(env, plain->assignments) : env);
  Launch l{
      plain ? plain->words[0].c_str() : "/bin/sh", {}, {}, in, out, err, ::getpid(), {}, "", ""};
  for (std::string& e : entries) l.envp.push_back(e.data());
  l.envp.push_back(nullptr);
  if (plain)
    for (const std::string& w : plain->words) l.argv.push_back(w.c_str());
  else
    l.argv = {"sh", "-c", line.c_str()};
  l.argv.push_back(nullptr);
  l.not_found = std::string(l.file) + ": not found\n";
  l.not_executable = std::string(l.file) + ": cannot execute\n";
  sigset_t all;
  ::sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &l.parent_mask);
  pid_t pid = ::vfork();
  if (pid == 0) become(l);
  ::pthread_sigmask(SIG_SETMASK, &l.parent_mask, nullptr);
  if (pid < 0) throw std::runtime_error("target: cannot start a process");
  ::setpgid(pid, pid);
  return pid;
}

// Waits for pid until `deadline`; whether it ended (then `status` is set).
bool wait_until(pid_t pid, int* status, Clock::time_point deadline) {
  // A pidfd becomes readable the moment the process ends, so the wait ends then too; without
  // one (an old kernel), waits back off from 0.2 to 20 ms.
  int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  auto pause = std::chrono::microseconds(200);
  for (;;) {
    pid_t r = ::waitpid(pid, status, WNOHANG);
    if (r == pid || r < 0 || Clock::now() >= deadline) {
      if (fd >= 0) ::close(fd);
      if (r < 0) *status = 0;
      return r == pid || r < 0;
    }
    if (fd >= 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      pollfd ended{fd, POLLIN, 0};
      ::poll(&ended, 1, static_cast<int>(std::clamp<int64_t>(left.count() + 1, 1, 1000)));
      continue;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
}

void kill_group(pid_t pid) {
  ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

TargetAnswer ended(int status) {
  TargetAnswer a;
  if (WIFSIGNALED(status)) {
    a.kind = TargetAnswer::Kind::Signaled;
    a.code = WTERMSIG(status);
  } else {
    a.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return a;
}

Clock::time_point deadline_after(double seconds) {
  return Clock::now() + std::chrono::microseconds(static_cast<int64_t>(seconds * 1e6));
}

}  // namespace

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string describe(const TargetAnswer& a, double time_limit) {
  switch (a.kind) {
    case TargetAnswer::Kind::Signaled: {
      const char* name = ::sigabbrev_np(a.code);
      return "killed by signal " + std::to_string(a.code) +
             (name ? " (SIG" + std::string(name) + ")" : "");
    }
    case TargetAnswer::Kind::TimedOut: {
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g", time_limit);
      return std::string("ran past the ") + limit + " s time limit";
    }
    default:
      return "exited " + std::to_string(a.code);
  }
}

Target::Target(std::string command, bool persistent, double time_limit)
    : command_(std::move(command)), persistent_(persistent), time_limit_(time_limit) {
  char tmpl[] = "/tmp/uopc-target-XXXXXX";
  if (!::mkdtemp(tmpl)) throw std::runtime_error("target: cannot create a folder");
  dir_ = tmpl;
  // A persistent engine that died is seen as EOF or EPIPE, not as a signal to this process.
  ::signal(SIGPIPE, SIG_IGN);
}

Target::~Target() {
  stop();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::string target_replay(const std::string& command, bool persistent, const std::string& file,
                          const Environment& env) {
  std::string settings;
  for (const auto& [name, value] : env) settings += name + "=" + shell_quote(value) + " ";
  if (persistent)
    return "echo " + shell_quote(file) + " | " + settings + command + "; cat " +
           shell_quote(file + ".out");
  return settings + command + " " + shell_quote(file);
}

namespace {

// Past this many bytes of answers, Recall keeps no more (a shrink of a program with large
// outputs asks about thousands of candidates).
constexpr size_t kRecallBytes = size_t{64} << 20;

ContentHash question_hash(const std::string& program, const Environment& env) {
  std::string question = program;
  for (const auto& [name, value] : env) question += '\0' + name + '=' + value;
  return content_hash(question);
}

}  // namespace

Target::Recall::Recall(Target& target) : target_(target) {
  ++target_.recalling_;
}

Target::Recall::~Recall() {
  if (--target_.recalling_ > 0) return;
  target_.answers_.clear();
  target_.answer_bytes_ = 0;
}

TargetAnswer Target::run(const std::string& program, const Environment& env) {
  std::optional<ContentHash> question;
  if (recalling_ > 0) {
    question = question_hash(program, env);
    if (auto at = answers_.find(*question); at != answers_.end()) return at->second;
  }
  std::string file = dir_ + "/program.uir";
  std::ofstream(file, std::ios::binary) << program;
  TargetAnswer a = persistent_ ? run_persistent(file, env) : run_once(file, env);
  size_t bytes = a.out.size() + a.err_tail.size();
  if (question && answer_bytes_ + bytes <= kRecallBytes) {
    answers_.emplace(*question, a);
    answer_bytes_ += bytes;
  }
  return a;
}

TargetAnswer Target::run_once(const std::string& file, const Environment& env) {
  std::string out_path = dir_ + "/stdout.txt", err_path = dir_ + "/stderr.txt";
  int in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  std::optional<PlainCommand> plain = plain_command(command_);
  if (plain) plain->words.push_back(file);
  pid_t pid =
      spawn(command_ + " " + shell_quote(file), plain ? &*plain : nullptr, in, out, err, env);
  ::close(in);
  ::close(out);
  ::close(err);
  int status = 0;
  TargetAnswer a;
  if (wait_until(pid, &status, deadline_after(time_limit_))) {
    a = ended(status);
  } else {
    kill_group(pid);
    a.kind = TargetAnswer::Kind::TimedOut;
  }
  ::kill(-pid, SIGKILL);  // anything it left behind in its group
  a.out = read_all(out_path);
  a.err_tail = last_lines(read_all(err_path), kStderrLines);
  return a;
}

void Target::start(const Environment& env) {
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
    throw std::runtime_error("target: cannot create a pipe");
  std::string err_path = dir_ + "/stderr.txt";
  int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  std::optional<PlainCommand> plain = plain_command(command_);
  pid_ = spawn(command_, plain ? &*plain : nullptr, in[0], out[1], err, env);
  env_ = env;
  ::close(in[0]);
  ::close(out[1]);
  ::close(err);
  to_ = in[1];
  from_ = out[0];
  pending_.clear();
}

void Target::stop() {
  if (pid_ <= 0) return;
  ::close(to_);
  ::close(from_);
  kill_group(pid_);
  pid_ = -1;
}

std::string Target::stderr_since(off_t from) const {
  std::string all = read_all(dir_ + "/stderr.txt");
  return last_lines(
      static_cast<size_t>(from) < all.size() ? all.substr(static_cast<size_t>(from)) : "",
      kStderrLines);
}

TargetAnswer Target::run_persistent(const std::string& file, const Environment& env) {
  if (pid_ > 0 && env != env_) stop();
  if (pid_ <= 0) start(env);
  struct stat st {};
  off_t err_start = ::stat((dir_ + "/stderr.txt").c_str(), &st) == 0 ? st.st_size : 0;
  std::filesystem::remove(file + ".out");
  std::string line = file + "\n";
  bool sent = ::write(to_, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  Clock::time_point deadline = deadline_after(time_limit_);
  TargetAnswer a;
  for (;;) {
    size_t nl = pending_.find('\n');
    if (nl != std::string::npos) {
      std::string answer = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      char* end = nullptr;
      long code = std::strtol(answer.c_str(), &end, 10);
      a.code = end != answer.c_str() && *end == '\0' ? static_cast<int>(code) : -1;
      a.out = read_all(file + ".out");
      break;
    }
    int wait_ms = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
    pollfd p{from_, POLLIN, 0};
    int ready = sent && wait_ms > 0 ? ::poll(&p, 1, wait_ms) : 0;
    char buf[4096];
    ssize_t n = ready > 0 ? ::read(from_, buf, sizeof buf) : 0;
    if (n > 0) {
      pending_.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (ready == 0 && sent) {  // no answer in time
      stop();
      a.kind = TargetAnswer::Kind::TimedOut;
      break;
    }
    // The engine closed its stdout, or never read the line: it ended.
    int status = 0;
    if (!wait_until(pid_, &status, deadline_after(1.0))) kill_group(pid_);
    ::close(to_);
    ::close(from_);
    ::kill(-pid_, SIGKILL);
    pid_ = -1;
    a = ended(status);
    if (a.kind == TargetAnswer::Kind::Exited && a.code == 0) a.code = -1;  // no answer is no 0
    break;
  }
  a.err_tail = stderr_since(err_start);
  return a;
}

void require_engine_starts(Target& target) {
  TargetAnswer a = target.run("%x = stack 1\n");
  if (a.kind != TargetAnswer::Kind::Exited || (a.code != 126 && a.code != 127)) return;
  std::string why = a.err_tail.substr(0, a.err_tail.find('\n'));
  throw UserError("--target: '" + target.command() + "' cannot be started (exit " +
                  std::to_string(a.code) + (why.empty() ? "" : ": " + why) + ")");
}

}  // namespace uopc
