// Servers on 127.0.0.1 for the tests of remote reads: a child process whose first line of
// output is read (test_server.py prints its port), and Debian's nginx serving a folder with an
// access log of one line per request ("GET /path HTTP/1.1 bytes=a-b 206").
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace kerchunk::testing {

/// A child process whose first line of standard output is read (a server's port); killed and
/// reaped on destruction.
class ChildProcess {
 public:
  ChildProcess(const std::vector<std::string>& argv, const std::string& log_path) {
    int out[2];
    if (::pipe(out) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(out[1], 1);
      const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (log >= 0) ::dup2(log, 2);
      ::close(out[0]);
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      ::execvp(args[0], args.data());
      ::_exit(127);
    }
    ::close(out[1]);
    out_ = out[0];
  }
  ~ChildProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
    if (out_ >= 0) ::close(out_);
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  /// The first line the child writes (empty when it exits first).
  std::string FirstLine() {
    std::string line;
    char c;
    while (out_ >= 0 && ::read(out_, &c, 1) == 1 && c != '\n') line += c;
    return line;
  }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
};

/// Why a server cannot run here ("" when it can): nginx runs as root in these tests.
inline std::string NginxUnavailable() {
  if (!std::filesystem::exists("/usr/sbin/nginx")) return "nginx is not installed";
  if (::geteuid() != 0) return "the test runs nginx as root";
  return "";
}

/// Debian's nginx on a free port of 127.0.0.1 serving `root`, its files and logs in `dir`. The
/// access log has one line per request ("GET /path HTTP/1.1 bytes=a-b 206"), or with
/// `combined_log` nginx's default combined format (what `kerchunk bench --server-log` reads).
class Nginx {
 public:
  Nginx(const std::filesystem::path& root, const std::filesystem::path& dir,
        bool combined_log = false)
      : dir_(dir) {
    // A free port: bind to 0, note it, release it for nginx.
    const std::string port = ChildProcess({"/usr/bin/python3", "-c",
                                           "import socket; s = socket.socket(); "
                                           "s.bind(('127.0.0.1', 0)); "
                                           "print(s.getsockname()[1])"},
                                          dir / "port.log")
                                 .FirstLine();
    const std::string d = dir.string();
    std::ofstream(dir / "nginx.conf")
        << "daemon off; user root; worker_processes 1; pid " << d << "/nginx.pid;\n"
        << "error_log " << d << "/error.log;\nevents {}\nhttp {\n"
        << "  log_format ranges '$request $http_range $status';\n"
        << "  access_log " << d << "/access.log" << (combined_log ? "" : " ranges") << ";\n"
        << "  client_body_temp_path " << d << ";\n  proxy_temp_path " << d << ";\n"
        << "  fastcgi_temp_path " << d << ";\n  uwsgi_temp_path " << d << ";\n"
        << "  scgi_temp_path " << d << ";\n"
        << "  server { listen 127.0.0.1:" << port << "; root " << root.string() << "; }\n}\n";
    process_ = std::make_unique<ChildProcess>(
        std::vector<std::string>{"/usr/sbin/nginx", "-c", d + "/nginx.conf", "-e",
                                 d + "/error.log"},
        d + "/nginx.out");
    base_ = "http://127.0.0.1:" + port;
  }
  /// "http://127.0.0.1:PORT".
  const std::string& base() const { return base_; }
  /// GET requests in the access log so far (in either format).
  int LoggedRequests() const {
    std::ifstream log(dir_ / "access.log");
    int n = 0;
    for (std::string line; std::getline(log, line);) {
      n += line.starts_with("GET ") || line.find("\"GET ") != std::string::npos;
    }
    return n;
  }
  std::filesystem::path access_log() const { return dir_ / "access.log"; }
  /// Waits (up to a second) until the log holds `n` requests: nginx writes a line after its
  /// response. Returns the count then.
  int WaitForRequests(int n) const {
    for (int i = 0; i < 50 && LoggedRequests() < n; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return LoggedRequests();
  }

 private:
  std::filesystem::path dir_;
  std::string base_;
  std::unique_ptr<ChildProcess> process_;
};

}  // namespace kerchunk::testing
