#include "cli/fuzz_command.h"

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "compiler/backend.h"
#include "fuzz/campaign.h"
#include "ir/error.h"
#include "ir/plant.h"
#include "ir/print.h"

namespace uopc::cli {
namespace {

// What workers share with the driver, in an anonymous shared mapping.
struct Shared {
  std::atomic<int64_t> programs[64];
  std::atomic<uint64_t> current_seed[64];
};

void print_failure(const Failure& f, uint64_t seed, const FuzzArgs& a) {
  std::printf("disagreement: the %s oracle failed: %s\n", f.oracle.c_str(), f.detail.c_str());
  std::printf("# program (seed %llu; replay with uopc fuzz --replay %llu%s%s):\n%s",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed),
              a.plant.empty() ? "" : " --plant ", a.plant.c_str(), f.program.c_str());
  if (!f.program.empty() && f.program.back() != '\n') std::printf("\n");
}

int replay(const FuzzArgs& a) {
  std::unique_ptr<Backend> backend = make_backend(a.backend);
  GenOptions gen;
  gen.max_numel = a.max_numel;
  uint64_t seed = static_cast<uint64_t>(a.replay);
  std::optional<Failure> f = check_seed(seed, *backend, gen);
  if (!f) {
    RandomChoices choices(seed);
    std::printf("# seed %llu: every oracle agrees\n%s", static_cast<unsigned long long>(seed),
                print_program(generate(choices, gen)).c_str());
    return 0;
  }
  print_failure(*f, seed, a);
  return 1;
}

// The worker's report on its pipe: "programs seconds failed seed", then the failure's parts.
void worker(int j, const FuzzArgs& a, uint64_t seed, Shared* shared, int fd) {
  CampaignOptions o;
  o.seconds = a.seconds;
  o.seed = seed;
  o.backend = a.backend;
  o.gen.max_numel = a.max_numel;
  o.max_programs = a.max_programs < 0 ? -1 : (a.max_programs + a.jobs - 1 - j) / a.jobs;
  o.progress = [&](int64_t n) { shared->programs[j] = n; };
  o.on_program = [&](uint64_t s) { shared->current_seed[j] = s; };
  CampaignResult r = run_campaign(o);
  shared->programs[j] = r.programs;
  std::string report = std::to_string(r.programs) + " " + std::to_string(r.seconds) + " " +
                       (r.failure ? "1 " : "0 ") + std::to_string(r.failing_seed) + "\n";
  if (r.failure) report += r.failure->oracle + "\n" + r.failure->detail + "\n" + r.failure->program;
  for (size_t at = 0; at < report.size();) {
    ssize_t n = ::write(fd, report.data() + at, report.size() - at);
    if (n <= 0) break;
    at += static_cast<size_t>(n);
  }
}

std::string read_all(int fd) {
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  return out;
}

}  // namespace

int run_fuzz(const FuzzArgs& a) {
  if (a.list_plants) {
    for (const PlantInfo& p : plant_list())
      std::printf("%-24s %s\n", std::string(p.name).c_str(), std::string(p.description).c_str());
    return 0;
  }
  std::optional<Plant> plant = parse_plant(a.plant);
  if (!plant)
    throw UserError("--plant: no planted bug named '" + a.plant + "' (see --list-plants)");
  set_plant(*plant);
  if (!make_backend(a.backend))
    throw UserError("--backend takes cc or tcc, not '" + a.backend + "'");
  if (a.jobs < 1 || a.jobs > 64) throw UserError("--jobs takes 1 to 64");
  if (a.replay >= 0) return replay(a);

  uint64_t seed =
      a.seed ? a.seed
             : static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  void* mem =
      ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw std::runtime_error("fuzz: cannot map shared memory");
  auto* shared = new (mem) Shared{};
  std::vector<pid_t> pids;
  std::vector<int> fds;
  std::fflush(stdout);
  for (int j = 0; j < a.jobs; ++j) {
    int pipefd[2];
    if (::pipe(pipefd) != 0) throw std::runtime_error("fuzz: cannot create a pipe");
    uint64_t worker_seed = seed + static_cast<uint64_t>(j) * 1'000'000'000'000ull;
    pid_t pid = ::fork();
    if (pid == 0) {
      ::close(pipefd[0]);
      worker(j, a, worker_seed, shared, pipefd[1]);
      ::close(pipefd[1]);
      std::fflush(nullptr);
      ::_exit(0);
    }
    ::close(pipefd[1]);
    pids.push_back(pid);
    fds.push_back(pipefd[0]);
  }

  auto start = std::chrono::steady_clock::now();
  auto total = [&] {
    int64_t n = 0;
    for (int j = 0; j < a.jobs; ++j) n += shared->programs[j];
    return n;
  };
  bool live = ::isatty(2);
  std::vector<int> status(pids.size(), 0);
  size_t running = pids.size();
  while (running > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    for (size_t j = 0; j < pids.size(); ++j)
      if (pids[j] > 0 && ::waitpid(pids[j], &status[j], WNOHANG) == pids[j]) {
        pids[j] = -pids[j];
        --running;
      }
    if (live) {
      double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "\rfuzz: %lld programs, %.0f programs/s, %.0f s",
                   static_cast<long long>(total()), t > 0 ? static_cast<double>(total()) / t : 0.0,
                   t);
    }
  }
  if (live) std::fprintf(stderr, "\n");

  int64_t programs = 0;
  int failures = 0;
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (size_t j = 0; j < fds.size(); ++j) {
    std::string report = read_all(fds[j]);
    ::close(fds[j]);
    if (!WIFEXITED(status[j]) || WEXITSTATUS(status[j]) != 0 || report.empty()) {
      ++failures;
      std::printf(
          "disagreement: worker %zu died (%s %d) while checking seed %llu; replay it with "
          "uopc fuzz --replay %llu\n",
          j, WIFSIGNALED(status[j]) ? "signal" : "exit code",
          WIFSIGNALED(status[j]) ? WTERMSIG(status[j]) : WEXITSTATUS(status[j]),
          static_cast<unsigned long long>(shared->current_seed[j].load()),
          static_cast<unsigned long long>(shared->current_seed[j].load()));
      programs += shared->programs[j];
      continue;
    }
    long long n = 0, failing_seed = 0;
    double s = 0;
    int failed = 0;
    std::sscanf(report.c_str(), "%lld %lf %d %lld", &n, &s, &failed, &failing_seed);
    programs += n;
    if (!failed) continue;
    ++failures;
    size_t first = report.find('\n'), second = report.find('\n', first + 1),
           third = report.find('\n', second + 1);
    Failure f{report.substr(first + 1, second - first - 1),
              report.substr(second + 1, third - second - 1), report.substr(third + 1)};
    print_failure(f, static_cast<uint64_t>(failing_seed), a);
  }
  ::munmap(mem, sizeof(Shared));
  std::printf(
      "fuzz: %lld programs in %.1f s, %.0f programs/s, %d disagreement%s (seed %llu, %d "
      "job%s%s%s)\n",
      static_cast<long long>(programs), seconds,
      seconds > 0 ? static_cast<double>(programs) / seconds : 0.0, failures,
      failures == 1 ? "" : "s", static_cast<unsigned long long>(seed), a.jobs,
      a.jobs == 1 ? "" : "s", a.plant.empty() ? "" : ", plant ", a.plant.c_str());
  return failures ? 1 : 0;
}

}  // namespace uopc::cli
