// The options scan and combine share for concatenating: --concat-dim (repeatable: outer
// dimensions first), --coord DIM=SPEC and --on-overlap, parsed into CombineOptions.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "kerchunk/commands/scan.h"
#include "kerchunk/util/status.h"

namespace kerchunk::cli {

struct ConcatOptionsText {
  std::vector<std::string> concat_dims;
  std::vector<std::string> coords;  ///< "DIM=SPEC"
  std::string on_overlap;           ///< empty: the default rule
};

/// Adds --concat-dim (with `concat_dim_help`), --coord and --on-overlap to `app`.
void AddConcatOptions(CLI::App& app, ConcatOptionsText& text, const std::string& concat_dim_help);

/// Fills out.concat_dim (the last --concat-dim), out.outer_dims (the others), out.coordinates
/// and out.on_overlap. InvalidArgument naming the option for a malformed --coord, a --coord
/// for a dimension no --concat-dim names, or a dimension given twice.
Status ApplyConcatOptions(const ConcatOptionsText& text, CombineOptions& out);

}  // namespace kerchunk::cli
