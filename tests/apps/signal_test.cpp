// A scan stopped by SIGTERM (Slurm's time limit) or Ctrl-C while it writes its output leaves no
// "out.json.tmp.<pid>.<n>" behind and ends with the conventional status 128 + signal. The
// signal is sent the moment the temporary file appears (inotify), the worst time.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "apps/apps_testing.h"
#include "support/scan_fixtures.h"

extern char** environ;

namespace kerchunk::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::IsEmpty;

class CliSignalTest : public ::testing::Test {
 protected:
  // Large enough that writing the references takes a while (~10 MB of JSON).
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    fs::create_directories(dir_->path() / "data");
    SeriesSpec spec;
    spec.files = 40;
    spec.times = 400;
    auto files = WriteSeries(dir_->path() / "data", spec);
    ASSERT_TRUE(files.ok()) << files.status().message();
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

 public:
  fs::path OutDir() const { return tmp_.path() / "out"; }

  struct Outcome {
    int status = -1;         ///< as a shell reports it: the exit code, or 128 + signal
    bool signalled = false;  ///< the signal was sent while the temporary file existed
  };

  // Runs `kerchunk scan data -o out/refs.json` and sends `signal` as soon as the temporary
  // output appears in out/.
  Outcome ScanAndSignal(int signal) {
    const fs::path out = OutDir();
    fs::create_directories(out);
    int watch = ::inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    EXPECT_GE(watch, 0);
    EXPECT_GE(::inotify_add_watch(watch, out.c_str(), IN_CREATE), 0);
    std::vector<std::string> args = {KerchunkBinary(),
                                     "scan",
                                     "-q",
                                     (dir_->path() / "data").string(),
                                     "-o",
                                     (out / "refs.json").string()};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, (tmp_ / "stderr").c_str(),
                                       O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = -1;
    EXPECT_EQ(::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
    ::posix_spawn_file_actions_destroy(&actions);

    Outcome outcome;
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!outcome.signalled && ::waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(pid, SIGKILL);
        break;
      }
      pollfd p{watch, POLLIN, 0};
      if (::poll(&p, 1, 10) <= 0) continue;
      alignas(inotify_event) char buffer[4096];
      ssize_t n = ::read(watch, buffer, sizeof buffer);
      for (ssize_t at = 0; at < n;) {
        const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
        if (event->len > 0 && std::string(event->name).find(".tmp.") != std::string::npos) {
          ::kill(pid, signal);
          outcome.signalled = true;
        }
        at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      }
    }
    if (outcome.signalled) ::waitpid(pid, &status, 0);
    ::close(watch);
    outcome.status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
    return outcome;
  }

 protected:
  static TempDir* dir_;
  TempDir tmp_;
};

TempDir* CliSignalTest::dir_ = nullptr;

// The signal can come too late: on a busy machine the scan may finish writing (and even exit)
// before it arrives; then the complete output is there. Such runs are repeated, up to 5 times,
// until one is stopped in time; every run must leave no temporary file.
void ExpectStoppedInTime(CliSignalTest& test, int signal, int status) {
  const fs::path out = test.OutDir() / "refs.json";
  int landed = 0;
  for (int attempt = 0; attempt < 5 && landed == 0; ++attempt) {
    CliSignalTest::Outcome outcome = test.ScanAndSignal(signal);
    // Not signalled: the scan finished before its temporary file was even seen.
    ASSERT_TRUE(outcome.signalled || fs::exists(out)) << "status " << outcome.status;
    EXPECT_THAT(TempFilesIn(test.OutDir()), IsEmpty()) << "signal " << signal;
    if (!fs::exists(out)) {
      EXPECT_EQ(outcome.status, status) << "signal " << signal;
      ++landed;
    } else {
      EXPECT_THAT(outcome.status, ::testing::AnyOf(0, status));
    }
    fs::remove_all(test.OutDir());
  }
  EXPECT_EQ(landed, 1) << "signal " << signal << " never arrived before the output was complete";
}

TEST_F(CliSignalTest, SigtermWhileWritingLeavesNothingAndExits143) {
  ExpectStoppedInTime(*this, SIGTERM, 143);
}

TEST_F(CliSignalTest, CtrlCAndHangupUseTheirOwnStatus) {
  ExpectStoppedInTime(*this, SIGINT, 130);
  ExpectStoppedInTime(*this, SIGHUP, 129);
}

// bench generates its files in a temporary folder (gigabytes for large sets): SIGTERM in the
// middle removes the folder with everything in it.
TEST_F(CliSignalTest, BenchWorkFolderGoesOnSigterm) {
  const std::string tmp = ShellQuote(tmp_.path().string());
  const std::string script = "TMPDIR=" + tmp + " " + ShellQuote(KerchunkBinary()) +
                             " bench -q --synthetic 40x400 --no-compressors >/dev/null & pid=$!\n"
                             "for i in $(seq 3000); do ls " +
                             tmp +
                             "/kerchunk-bench-*/*/* >/dev/null 2>&1 && break; "
                             "sleep 0.01; done\n"
                             "ls -d " +
                             tmp +
                             "/kerchunk-bench-* >/dev/null 2>&1 || echo 'no work folder seen'\n"
                             "kill -TERM $pid; wait $pid; echo status $?\n";
  CommandResult r = RunCommand(script);
  EXPECT_EQ(r.out, "status 143\n") << r.err;
  EXPECT_THAT(FilesIn(tmp_.path()), IsEmpty());
}

}  // namespace
}  // namespace kerchunk::testing
