#include "kerchunk/pack/selection.h"

#include <charconv>

namespace kerchunk::pack {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

Result<std::optional<int64_t>> ParseBound(std::string_view text, std::string_view selection) {
  text = Trim(text);
  if (text.empty()) return std::optional<int64_t>();
  int64_t v;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return InvalidArgumentError("selection \"{}\": \"{}\" is not an integer", selection, text);
  }
  return std::optional(v);
}

Result<DimensionSelection> ParseDimension(std::string_view part, std::string_view selection) {
  DimensionSelection d;
  size_t colon = part.find(':');
  if (colon == std::string_view::npos) {
    KERCHUNK_ASSIGN_OR_RETURN(d.start, ParseBound(part, selection));
    if (!d.start) {
      return InvalidArgumentError("selection \"{}\": empty index (use ':' for all)", selection);
    }
    d.index = true;
    return d;
  }
  if (part.find(':', colon + 1) != std::string_view::npos) {
    return InvalidArgumentError("selection \"{}\": slice steps are not supported", selection);
  }
  KERCHUNK_ASSIGN_OR_RETURN(d.start, ParseBound(part.substr(0, colon), selection));
  KERCHUNK_ASSIGN_OR_RETURN(d.stop, ParseBound(part.substr(colon + 1), selection));
  return d;
}

// Python's index normalisation: negative counts from the end, slices clamp to [0, size].
uint64_t Clamp(int64_t bound, uint64_t size) {
  if (bound < 0) {
    uint64_t back = static_cast<uint64_t>(-(bound + 1)) + 1;
    return back >= size ? 0 : size - back;
  }
  return static_cast<uint64_t>(bound) > size ? size : static_cast<uint64_t>(bound);
}

}  // namespace

Result<Selection> ParseSelection(std::string_view text) {
  Selection s;
  std::string_view t = Trim(text);
  size_t open = t.find('[');
  s.array = std::string(Trim(t.substr(0, open)));
  if (s.array.empty()) {
    return InvalidArgumentError("selection \"{}\": expected an array path before '['", text);
  }
  if (open == std::string_view::npos) return s;
  if (t.back() != ']' || t.find('[', open + 1) != std::string_view::npos ||
      t.find(']') != t.size() - 1) {
    return InvalidArgumentError("selection \"{}\": expected \"array[dim, dim, ...]\"", text);
  }
  std::string_view inside = t.substr(open + 1, t.size() - open - 2);
  if (Trim(inside).empty()) return s;
  for (size_t start = 0;;) {
    size_t comma = inside.find(',', start);
    std::string_view part = inside.substr(start, comma - start);
    if (Trim(part) == "...") {
      return InvalidArgumentError("selection \"{}\": '...' is not supported", text);
    }
    KERCHUNK_ASSIGN_OR_RETURN(DimensionSelection d, ParseDimension(part, text));
    s.dimensions.push_back(d);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return s;
}

Result<std::vector<std::pair<uint64_t, uint64_t>>> SelectedElementRanges(const Selection& s,
                                                                         const ChunkGrid& grid) {
  if (s.dimensions.size() > grid.rank()) {
    return InvalidArgumentError("selection of \"{}\": {} dimensions given, the array has {}",
                                s.array, s.dimensions.size(), grid.rank());
  }
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (size_t d = 0; d < grid.rank(); ++d) {
    const uint64_t size = grid.shape()[d];
    uint64_t first = 0, last = size;  // element range [first, last)
    if (d < s.dimensions.size()) {
      const DimensionSelection& sel = s.dimensions[d];
      if (sel.index) {
        int64_t i = *sel.start;
        bool inside =
            i >= 0 ? static_cast<uint64_t>(i) < size : static_cast<uint64_t>(-(i + 1)) < size;
        if (!inside) {
          return InvalidArgumentError(
              "selection of \"{}\": index {} is out of bounds for dimension {} of size {}", s.array,
              i, d, size);
        }
        first = i >= 0 ? static_cast<uint64_t>(i) : size - (static_cast<uint64_t>(-(i + 1)) + 1);
        last = first + 1;
      } else {
        first = sel.start ? Clamp(*sel.start, size) : 0;
        last = sel.stop ? Clamp(*sel.stop, size) : size;
      }
    }
    ranges.emplace_back(first < last ? first : 0, first < last ? last : 0);
  }
  return ranges;
}

Result<std::vector<std::pair<uint64_t, uint64_t>>> SelectedChunkRanges(const Selection& s,
                                                                       const ChunkGrid& grid) {
  KERCHUNK_ASSIGN_OR_RETURN(auto ranges, SelectedElementRanges(s, grid));
  for (size_t d = 0; d < ranges.size(); ++d) {
    auto& [first, last] = ranges[d];
    if (first < last) {
      const uint64_t chunk = grid.chunks()[d];
      ranges[d] = {first / chunk, (last - 1) / chunk + 1};
    }
  }
  return ranges;
}

}  // namespace kerchunk::pack
