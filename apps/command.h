// Subcommand registry of the `kerchunk` program. Each command lives in its own file in apps/,
// parses its options into the library's options struct and calls one library function.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::cli {

/// Exit statuses shared by all commands (documented in README "Exit status").
inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;  ///< verify found problems
inline constexpr int kExitError = 2;        ///< usage error or unreadable/invalid input

struct Command {
  std::string name;
  std::string description;
  /// Declares the options on `app` and returns the function that runs the command.
  std::function<std::function<int()>(CLI::App& app)> setup;
};

/// Adds a command to the registry (called from static initialisers, see REGISTER_COMMAND).
bool RegisterCommand(Command command);
const std::vector<Command>& Commands();

/// Prints "kerchunk <command>: error: <message>" to stderr and returns kExitError.
int ReportError(std::string_view command, const Status& status);

}  // namespace kerchunk::cli

#define KERCHUNK_REGISTER_COMMAND(ident, ...) \
  static const bool kerchunk_registered_##ident = ::kerchunk::cli::RegisterCommand(__VA_ARGS__)
