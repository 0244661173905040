// `kerchunk <command> ...`, also reachable as `kerchunk-<command> ...` (argv[0] dispatch).
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "command.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::cli {

namespace {
std::vector<Command>& Registry() {
  static std::vector<Command> commands;
  return commands;
}
}  // namespace

bool RegisterCommand(Command command) {
  Registry().push_back(std::move(command));
  return true;
}

const std::vector<Command>& Commands() { return Registry(); }

int ReportError(std::string_view command, const Status& status) {
  fmt::print(stderr, "kerchunk {}: error: {}\n", command, status.message());
  return kExitError;
}

}  // namespace kerchunk::cli

int main(int argc, char** argv) {
  using namespace kerchunk::cli;
  // Ctrl-C, or Slurm's SIGTERM at a time limit, must not leave "out.json.tmp.<pid>.<n>" behind.
  kerchunk::RemoveTemporaryOutputsOnSignals();
  // kerchunk-scan ARGS == kerchunk scan ARGS
  std::vector<std::string> args(argv, argv + argc);
  std::string program = std::filesystem::path(args[0]).filename().string();
  if (program.starts_with("kerchunk-")) {
    args.insert(args.begin() + 1, program.substr(std::string_view("kerchunk-").size()));
  }

  CLI::App app{"kerchunk: build, compress and check Kerchunk reference indexes for NetCDF/HDF5",
               "kerchunk"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("kerchunk ") + KERCHUNK_VERSION);
  app.footer(
      "Exit status: 0 success; 1 verification failed (verify); 2 usage error or bad input;\n"
      "129, 130, 143 stopped by SIGHUP, SIGINT (Ctrl-C), SIGTERM (no output is left).\n"
      "Run `kerchunk <command> --help` for the options and examples of a command.");
  std::function<int()> run;
  for (const auto& command : Commands()) {
    CLI::App* sub = app.add_subcommand(command.name, command.description);
    auto runner = command.setup(*sub);
    sub->callback([&run, runner] { run = runner; });
  }
  try {
    std::vector<std::string> rest(args.rbegin(), args.rend() - 1);  // CLI11 wants reversed
    app.parse(rest);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitError;
  }
  return run ? run() : kExitError;
}
