// Checks every command makes before it does any work: no output may be one of its inputs (a
// typo such as `scan in.nc -o in.nc` would otherwise replace the data file with JSON).
#pragma once

#include <string>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::cli {

/// An output file as the user named it, with the option that named it ("-o", "--junit").
struct NamedOutput {
  std::string option;
  std::string path;  ///< "" (not asked for) and "-" (standard output) are never checked
};

/// InvalidArgument naming the output and the input, as the user gave them, when an output that
/// already exists is the same file (device and inode, so hard links, symbolic links and other
/// spellings of the path count) as one of `inputs` or as an earlier output. Inputs that do not
/// exist (or are "-") are left to the command, which reports them.
Status RefuseOutputsOverInputs(const std::vector<NamedOutput>& outputs,
                               const std::vector<std::string>& inputs);

/// InvalidArgument naming the output as the user gave it when it cannot be written: its folder
/// does not exist, is not a folder or is not writable, or the output is itself a folder. Run
/// before the work, so that a long verify or bench does not fail only at its end.
Status CheckOutputLocations(const std::vector<NamedOutput>& outputs);

/// True when at least one of `outputs` exists already: only then can it be an input, and only
/// then is it worth expanding folders and patterns into the files a command would read.
bool AnyOutputExists(const std::vector<NamedOutput>& outputs);

/// `inputs` without remote ones (URLs): those are not local files an output could overwrite,
/// and left in they would make the expansion of the local ones fail.
std::vector<std::string> LocalInputs(const std::vector<std::string>& inputs);

/// `inputs` with folders and patterns expanded as `kerchunk scan` does (ExpandInputs), so that
/// an output found inside an input folder is caught; the inputs as given when they do not
/// expand (the command reports why).
std::vector<std::string> ExpandedInputs(const std::vector<std::string>& inputs);

}  // namespace kerchunk::cli
