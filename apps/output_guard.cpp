#include "output_guard.h"

#include <unistd.h>

#include <filesystem>
#include <optional>

#include "kerchunk/io/byte_source.h"
#include "kerchunk/scan/input_list.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::cli {
namespace {

namespace fs = std::filesystem;

bool Checked(const std::string& path) { return !path.empty() && path != "-"; }

}  // namespace

Status RefuseOutputsOverInputs(const std::vector<NamedOutput>& outputs,
                               const std::vector<std::string>& inputs) {
  std::vector<std::optional<FileIdentity>> input_ids;
  input_ids.reserve(inputs.size());
  for (const std::string& input : inputs) {
    input_ids.push_back(Checked(input) ? IdentifyFile(input) : std::nullopt);
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const NamedOutput& output = outputs[i];
    if (!Checked(output.path)) continue;
    std::optional<FileIdentity> id = IdentifyFile(output.path);
    if (!id) continue;
    for (size_t k = 0; k < inputs.size(); ++k) {
      if (input_ids[k] == id) {
        return InvalidArgumentError(
            "{} {} is the same file as the input {}; refusing to overwrite an input", output.option,
            output.path, inputs[k]);
      }
    }
    for (size_t k = 0; k < i; ++k) {
      if (Checked(outputs[k].path) && IdentifyFile(outputs[k].path) == id) {
        return InvalidArgumentError("{} {} and {} {} are the same file; give two different files",
                                    outputs[k].option, outputs[k].path, output.option, output.path);
      }
    }
  }
  return OkStatus();
}

Status CheckOutputLocations(const std::vector<NamedOutput>& outputs) {
  for (const NamedOutput& output : outputs) {
    if (!Checked(output.path)) continue;
    const fs::path path(output.path);
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      return InvalidArgumentError("{} {}: is a folder; give a file name", output.option,
                                  output.path);
    }
    const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
    if (!fs::exists(folder, ec)) {
      return InvalidArgumentError("{} {}: folder {} does not exist", output.option, output.path,
                                  folder.string());
    }
    if (!fs::is_directory(folder, ec)) {
      return InvalidArgumentError("{} {}: {} is not a folder", output.option, output.path,
                                  folder.string());
    }
    if (::access(folder.c_str(), W_OK | X_OK) != 0) {
      return InvalidArgumentError("{} {}: folder {} is not writable", output.option, output.path,
                                  folder.string());
    }
  }
  return OkStatus();
}

bool AnyOutputExists(const std::vector<NamedOutput>& outputs) {
  for (const NamedOutput& output : outputs) {
    if (Checked(output.path) && IdentifyFile(output.path)) return true;
  }
  return false;
}

std::vector<std::string> LocalInputs(const std::vector<std::string>& inputs) {
  std::vector<std::string> local;
  for (const std::string& input : inputs) {
    if (!io::IsRemoteUrl(input)) local.push_back(input);
  }
  return local;
}

std::vector<std::string> ExpandedInputs(const std::vector<std::string>& inputs) {
  std::vector<std::string> all = inputs;  // first as given: messages name what the user typed
  Result<std::vector<std::string>> files = ExpandInputs(LocalInputs(inputs));
  if (files.ok()) all.insert(all.end(), files->begin(), files->end());
  return all;
}

}  // namespace kerchunk::cli
