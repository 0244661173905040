// Turning what the user named on the command line (files, directories, globs, file lists) into
// the sorted, de-duplicated list of files that `kerchunk scan` reads, and slicing that list into
// shards for array jobs.
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk {

/// Expands `inputs` into a sorted list of files without duplicates. Each input is, in this
/// order of precedence:
///  - an existing regular file: taken as it is, whatever its contents (a file that is not HDF5
///    or NetCDF-3 is reported when it is scanned);
///  - an existing directory: searched recursively for regular files whose first bytes are an
///    HDF5 or NetCDF-3 signature (see DetectFileFormat); other files are left out silently.
///    Names starting with "." (hidden files, ".snapshot" folders) are not entered, and symbolic
///    links to directories are not followed (no cycles), while links to files are;
///  - a pattern containing *, ? or [ : expanded with glob(3) (so the shell need not expand it),
///    each match then treated as above;
///  - anything else: NotFound naming the input.
/// A pattern that matches nothing is NotFound. Paths are made absolute and lexically normal
/// ("a/./b/../c" -> "$PWD/a/c"), without resolving symbolic links, and sorted bytewise; the same
/// file named twice through different spellings of one path appears once. Hard links or
/// symbolic links naming the same file under different paths are not merged.
Result<std::vector<std::string>> ExpandInputs(const std::vector<std::string>& inputs);

/// Expands arguments that name files only (the parts of `kerchunk combine`): an existing path is
/// kept as given, a missing one containing *, ? or [ is expanded with glob(3) (NotFound when
/// nothing matches), anything else is NotFound. Order and duplicates are kept.
Result<std::vector<std::string>> ExpandFilePatterns(const std::vector<std::string>& inputs);

/// Reads a file list, one path (or directory, or pattern) per line. Trailing "\r" is dropped
/// and empty lines are ignored; nothing else is interpreted (no comments, no quoting), so any
/// file name without a newline can be listed. Relative paths are relative to the current
/// directory, as for paths on the command line.
std::vector<std::string> ReadFileList(std::istream& in);

/// Shard `index` of `count`: 0-based, 0 <= index < count.
struct Shard {
  size_t index = 0;
  size_t count = 1;
};

/// Parses "K/N" (decimal, 0 <= K < N). InvalidArgument explains the form on error.
Result<Shard> ParseShard(std::string_view text);

/// The K-th of N contiguous slices of `files`: [floor(K*M/N), floor((K+1)*M/N)) for M files.
/// The slices of K = 0..N-1 cover the list exactly once, in order, and differ in size by at
/// most one; with more shards than files some slices are empty.
std::vector<std::string> ShardSlice(const std::vector<std::string>& files, const Shard& shard);

}  // namespace kerchunk
