// Moving chunk references between reference sets: URL ids re-interned into the output table,
// and the chunks of a concatenated variable renumbered along the concat dimension.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "combine/part_view.h"
#include "combine/placement.h"

namespace kerchunk::internal {

/// Maps each part's URL ids to ids of the output URL table, interning a URL the first time a
/// reference uses it (so URLs no output reference uses are not added).
class UrlRemapper {
 public:
  UrlRemapper(UrlTable& out, const std::vector<PartView>& parts);
  /// Output id of url id `id` of part `part`, interned on first use. Not thread-safe.
  uint32_t Map(size_t part, uint32_t id);
  /// Interns the URLs of `refs` (of part `part`) in the order its references use them: what
  /// calling Map on each reference in turn would do, without building anything.
  void MapAll(size_t part, const ArrayRefs& refs);
  /// Output id of a URL Map or MapAll has interned. Only reads, so any number of threads can
  /// call it once the interning is done.
  uint32_t Mapped(size_t part, uint32_t id) const { return ids_[part][id]; }

 private:
  static constexpr uint32_t kUnset = UINT32_MAX;
  UrlTable& out_;
  const std::vector<PartView>& parts_;
  std::vector<std::vector<uint32_t>> ids_;
};

/// The references of a concatenated variable: every part's chunks, their index along the concat
/// axis moved by the part's start / the chunk extent. Where parts overlap, a key keeps the
/// reference of the later part in input order.
///
/// Built in two steps so that the variables of a combine, and pieces of each, are built on
/// several threads while the output stays that of one thread: Prepare runs on one thread,
/// variable after variable in output order, gives the URL ids out in the order of the output
/// references and sizes the output; Build then fills pieces (runs of parts) in place,
/// concurrently, reading ids only.
class Concatenation {
 public:
  /// `grid` is the output grid (combined shape). The references are split into at most
  /// `max_pieces` pieces of about equal size. Overlapping parts (or a concat axis after the first
  /// chunked dimension) need a sort over all references, so they are built here, in one piece.
  static Result<Concatenation> Prepare(const std::vector<PartView>& parts, const VariablePlan& plan,
                                       const Placement& placement, ChunkGrid grid,
                                       UrlRemapper& urls, size_t max_pieces);

  /// Pieces left for Build (0 when Prepare built the whole variable).
  size_t pieces() const { return piece_parts_.empty() ? 0 : piece_parts_.size() - 1; }
  /// Writes the references of piece `piece` at their places. Distinct pieces may be built
  /// concurrently; each is built once.
  void Build(size_t piece);
  /// The variable's references, once every piece is built.
  Result<ArrayRefs> Finish() &&;

 private:
  // An inline value met by Build: stored by Finish, on one thread, since inline bytes are
  // appended to one buffer.
  struct InlineValue {
    size_t position;
    uint64_t chunk;
    std::string_view bytes;
    bool base64;
  };

  Concatenation(const VariablePlan& plan, const Placement& placement, ChunkGrid grid,
                const UrlRemapper& urls)
      : plan_(&plan), placement_(&placement), urls_(&urls), out_(plan.path, std::move(grid)) {}

  const VariablePlan* plan_;
  const Placement* placement_;
  const UrlRemapper* urls_;
  ArrayRefs out_;
  std::vector<size_t> order_;              // parts by start position
  std::vector<const ArrayRefs*> sources_;  // the variable's references in each part
  std::vector<size_t> piece_parts_;        // positions in order_ where pieces begin, and end
  std::vector<size_t> piece_first_;        // position in out_ of each piece's first reference
  std::vector<std::vector<InlineValue>> inline_values_;  // per piece
};

}  // namespace kerchunk::internal
