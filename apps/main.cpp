// `kerchunk <command> ...`, also reachable as `kerchunk-<command> ...` (argv[0] dispatch).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "command.h"
#include "kerchunk/util/file_io.h"
#include "usage_errors.h"

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

namespace {

using namespace kerchunk::cli;

int UsageError(std::string_view command, std::string_view message) {
  fmt::print(stderr, "kerchunk{}{}: error: {}\n", command.empty() ? "" : " ", command, message);
  return kExitError;
}

std::vector<std::string> CommandNames() {
  std::vector<std::string> names;
  for (const auto& command : Commands()) names.push_back(command.name);
  return names;
}

// `kerchunk sacn ...`: CLI11 would say only "A subcommand is required".
std::string UnknownCommandMessage(const std::string& given) {
  std::vector<std::string> names = CommandNames();
  std::string suggestion = ClosestName(given, names);
  if (!suggestion.empty()) {
    return fmt::format("unknown command {} (did you mean {}?)", given, suggestion);
  }
  return fmt::format("unknown command {}; the commands are {}", given, fmt::join(names, ", "));
}

}  // namespace

int main(int argc, char** argv) {
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
    MarkRequiredOptions(*sub);
    // Unknown arguments are kept (not thrown at once) so that they can be reported first, with
    // the option they probably meant.
    sub->allow_extras();
    sub->callback([&run, runner] { run = runner; });
  }
  if (args.size() > 1 && !args[1].starts_with("-")) {
    const std::vector<std::string> names = CommandNames();
    if (std::find(names.begin(), names.end(), args[1]) == names.end()) {
      return UsageError("", UnknownCommandMessage(args[1]));
    }
  }
  try {
    std::vector<std::string> rest(args.rbegin(), args.rend() - 1);  // CLI11 wants reversed
    app.parse(rest);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::vector<CLI::App*> parsed = app.get_subcommands();
    if (parsed.empty()) {
      if (args.size() == 1) {
        return UsageError("", fmt::format("no command given; the commands are {} (see kerchunk "
                                          "--help)",
                                          fmt::join(CommandNames(), ", ")));
      }
      return UsageError("", UsageErrorMessage(&app, e));
    }
    return UsageError(parsed.front()->get_name(), UsageErrorMessage(parsed.front(), e));
  }
  for (CLI::App* sub : app.get_subcommands()) {
    if (std::string unused = UnusedArgumentMessage(*sub); !unused.empty()) {
      return UsageError(sub->get_name(), unused);
    }
  }
  return run ? run() : kExitError;
}
