#include "concat_options.h"

#include <algorithm>
#include <map>

namespace kerchunk::cli {

void AddConcatOptions(CLI::App& app, ConcatOptionsText& text, const std::string& concat_dim_help) {
  app.add_option("--concat-dim", text.concat_dims, concat_dim_help)
      ->option_text("NAME")
      ->allow_extra_args(false);
  app.add_option("--coord", text.coords,
                 "Where a concat dimension's values come from: DIM=attr:NAME (global attribute), "
                 "DIM=vattr:VAR:NAME, DIM=path:REGEX (file name), DIM=index, or for a dimension "
                 "the files have DIM=data:VAR; repeatable")
      ->option_text("DIM=SPEC")
      ->allow_extra_args(false);
  app.add_option("--on-overlap", text.on_overlap,
                 "Files covering the same positions: error, later or earlier wins (default: a "
                 "file entirely covered by another is an error, a partial overlap keeps the later)")
      ->check(CLI::IsMember({"error", "later", "earlier"}));
}

Status ApplyConcatOptions(const ConcatOptionsText& text, CombineOptions& out) {
  std::vector<std::string> dims = text.concat_dims;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (std::count(dims.begin(), dims.end(), dims[i]) > 1) {
      return InvalidArgumentError("--concat-dim {} is given twice", dims[i]);
    }
  }
  if (!dims.empty()) {
    out.concat_dim = dims.back();
    out.outer_dims.assign(dims.begin(), dims.end() - 1);
  }
  for (const std::string& coord : text.coords) {
    size_t eq = coord.find('=');
    if (eq == std::string::npos || eq == 0) {
      return InvalidArgumentError("--coord {}: expected DIM=SPEC", coord);
    }
    std::string dim = coord.substr(0, eq);
    if (std::find(dims.begin(), dims.end(), dim) == dims.end()) {
      return InvalidArgumentError("--coord {}: \"{}\" is not a --concat-dim", coord, dim);
    }
    KERCHUNK_ASSIGN_OR_RETURN(
        CoordinateSource source,
        ParseCoordinateSource(std::string_view(coord).substr(eq + 1)).Annotate("--coord " + coord));
    if (!out.coordinates.emplace(dim, std::move(source)).second) {
      return InvalidArgumentError("--coord: dimension \"{}\" is given twice", dim);
    }
  }
  static const std::map<std::string, OnOverlap> kOnOverlap = {{"", OnOverlap::kDefault},
                                                              {"error", OnOverlap::kError},
                                                              {"later", OnOverlap::kLater},
                                                              {"earlier", OnOverlap::kEarlier}};
  out.on_overlap = kOnOverlap.at(text.on_overlap);
  return OkStatus();
}

}  // namespace kerchunk::cli
