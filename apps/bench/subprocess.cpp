#include "bench/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>

#include "kerchunk/util/file_io.h"

extern char** environ;

namespace kerchunk::bench::internal {
namespace {

// Owns a file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.Release()) {}
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) Reset(o.Release());
    return *this;
  }
  ~Fd() { Reset(); }
  int get() const { return fd_; }
  int Release() { return std::exchange(fd_, -1); }
  void Reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

Status MakePipe(Fd& read_end, Fd& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return IoError("pipe: {}", std::strerror(errno));
  read_end.Reset(fds[0]);
  write_end.Reset(fds[1]);
  return OkStatus();
}

// environ with `extra` added or replaced, as "NAME=value" strings.
std::vector<std::string> MergedEnvironment(
    const std::vector<std::pair<std::string, std::string>>& extra) {
  std::map<std::string, std::string> vars;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view entry(*e);
    size_t eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    vars[std::string(entry.substr(0, eq))] = std::string(entry.substr(eq + 1));
  }
  for (const auto& [name, value] : extra) vars[name] = value;
  std::vector<std::string> merged;
  for (const auto& [name, value] : vars) merged.push_back(name + "=" + value);
  return merged;
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

// Reads both pipes until both are closed, keeping or counting standard output.
void DrainPipes(Fd& out, Fd& err, bool keep_stdout, ProcessResult& result) {
  char buffer[1 << 16];
  while (out.get() >= 0 || err.get() >= 0) {
    pollfd fds[2] = {{out.get(), POLLIN, 0}, {err.get(), POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = ::read(fds[i].fd, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR) continue;
      Fd& fd = i == 0 ? out : err;
      if (n <= 0) {
        fd.Reset();
        continue;
      }
      if (i == 0) {
        result.out_bytes += static_cast<uint64_t>(n);
        if (keep_stdout) result.out.append(buffer, static_cast<size_t>(n));
      } else {
        result.err.append(buffer, static_cast<size_t>(n));
      }
    }
  }
}

}  // namespace

std::optional<std::string> FindProgram(std::string_view name) {
  if (name.find('/') != std::string_view::npos) {
    std::string path(name);
    if (::access(path.c_str(), X_OK) == 0) return path;
    return std::nullopt;
  }
  const char* path_env = std::getenv("PATH");
  std::string_view dirs = path_env ? path_env : "/usr/bin:/bin";
  while (!dirs.empty()) {
    size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + std::string(name);
    struct stat st;
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return std::nullopt;
}

Result<ProcessResult> RunProcess(const std::vector<std::string>& argv,
                                 const ProcessOptions& options) {
  if (argv.empty()) return InvalidArgumentError("RunProcess: expected a program, got none");
  std::optional<std::string> program = FindProgram(argv[0]);
  if (!program) return NotFoundError("{}: program not found in PATH", argv[0]);
  Fd out_read, out_write, err_read, err_write;
  KERCHUNK_RETURN_IF_ERROR(MakePipe(out_read, out_write));
  KERCHUNK_RETURN_IF_ERROR(MakePipe(err_read, err_write));
  const std::string stdin_path = options.stdin_path.empty() ? "/dev/null" : options.stdin_path;
  Fd input(::open(stdin_path.c_str(), O_RDONLY | O_CLOEXEC));
  if (input.get() < 0) return IoError("{}: {}", stdin_path, std::strerror(errno));

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, input.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, out_write.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, err_write.get(), 2);
  std::vector<std::string> args = argv;
  std::vector<std::string> env = MergedEnvironment(options.environment);
  std::vector<char*> c_args = CStrings(args), c_env = CStrings(env);
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, program->c_str(), &actions, nullptr, c_args.data(), c_env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return IoError("cannot start {}: {}", *program, std::strerror(rc));
  out_write.Reset();
  err_write.Reset();
  input.Reset();

  ProcessResult result;
  DrainPipes(out_read, err_read, options.keep_stdout, result);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return IoError("waitpid {}: {}", *program, std::strerror(errno));
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

Result<ProcessResult> RunPythonScript(const std::string& interpreter, const char* script,
                                      const std::string& python_path,
                                      const std::string& config_path,
                                      const std::string& config_text) {
  KERCHUNK_RETURN_IF_ERROR(WriteFileAtomically(config_path, config_text));
  ProcessOptions process;
  process.environment.emplace_back("PYTHONPATH", python_path);
  Result<ProcessResult> run = RunProcess({interpreter, "-c", script, config_path}, process);
  std::error_code ignored;
  std::filesystem::remove(config_path, ignored);
  return run;
}

}  // namespace kerchunk::bench::internal
