#include "related_arrays.h"

#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "kerchunk/json/json_value.h"

namespace kerchunk::pack::internal {
namespace {

std::string GroupOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

std::optional<json::Value> Attributes(const IndexState& s, const std::string& path) {
  auto it = s.entry_by_key.find(path + "/.zattrs");
  if (it == s.entry_by_key.end()) return std::nullopt;
  Result<json::Value> attrs = json::Value::Parse(s.base.entries[it->second].value.data);
  if (!attrs.ok() || attrs->type() != json::Value::Type::kObject) return std::nullopt;
  return *std::move(attrs);
}

std::vector<std::string> Dimensions(const std::optional<json::Value>& attrs) {
  std::vector<std::string> dims;
  const json::Value* list = attrs ? attrs->Find("_ARRAY_DIMENSIONS") : nullptr;
  if (list == nullptr || list->type() != json::Value::Type::kArray) return dims;
  for (const json::Value& d : list->as_array()) {
    if (d.is_string()) dims.push_back(d.as_string());
  }
  return dims;
}

// The variable names of a CF attribute: "lat lon", or "crs: lat lon" (grid_mapping's long form).
std::vector<std::string> NamesIn(const std::optional<json::Value>& attrs, std::string_view key) {
  std::vector<std::string> names;
  const json::Value* value = attrs ? attrs->Find(key) : nullptr;
  if (value == nullptr || !value->is_string()) return names;
  std::istringstream words(value->as_string());
  for (std::string word; words >> word;) {
    if (word.ends_with(':')) word.pop_back();
    if (!word.empty()) names.push_back(word);
  }
  return names;
}

// CF times ("days since 2000-01-01"): xarray reads their first and last elements on open to
// choose how to decode them.
bool HasTimeUnits(const std::optional<json::Value>& attrs) {
  const json::Value* units = attrs ? attrs->Find("units") : nullptr;
  return units != nullptr && units->is_string() &&
         units->as_string().find(" since ") != std::string::npos;
}

// The first and the last element of an array, as two boxes.
void AddEnds(size_t a, const ChunkGrid& grid, std::vector<ArrayBox>& out) {
  ArrayBox first{a, {}}, last{a, {}};
  for (size_t d = 0; d < grid.rank(); ++d) {
    const uint64_t n = grid.shape()[d];
    first.elements.emplace_back(0, n > 0 ? 1 : 0);
    last.elements.emplace_back(n > 0 ? n - 1 : 0, n);
  }
  out.push_back(std::move(first));
  out.push_back(std::move(last));
}

}  // namespace

std::vector<ArrayBox> RelatedArrays(const IndexState& s, size_t array,
                                    const ElementRanges& elements) {
  const std::string& path = s.base.arrays[array].path();
  const std::string group = GroupOf(path);
  const std::optional<json::Value> attrs = Attributes(s, path);
  const std::vector<std::string> dims = Dimensions(attrs);

  // Along the dimensions it shares with the selected array, the selected elements; else whole.
  auto box_of = [&](size_t a, bool whole) {
    const ChunkGrid& grid = s.base.arrays[a].grid();
    const std::vector<std::string> own = Dimensions(Attributes(s, s.base.arrays[a].path()));
    ArrayBox box{a, {}};
    for (size_t d = 0; d < grid.rank(); ++d) {
      std::pair<uint64_t, uint64_t> range{0, grid.shape()[d]};
      for (size_t k = 0; !whole && own.size() == grid.rank() && k < dims.size(); ++k) {
        if (dims[k] == own[d] && k < elements.size()) {
          range = {std::min(elements[k].first, grid.shape()[d]),
                   std::min(elements[k].second, grid.shape()[d])};
        }
      }
      box.elements.push_back(range);
    }
    return box;
  };

  std::vector<ArrayBox> out;
  std::set<size_t> taken = {array};
  std::vector<std::string> named = NamesIn(attrs, "coordinates");
  for (std::string& n : NamesIn(attrs, "grid_mapping")) named.push_back(std::move(n));
  for (size_t a = 0; a < s.base.arrays.size(); ++a) {
    const std::string& other = s.base.arrays[a].path();
    if (GroupOf(other) != group || s.base.arrays[a].grid().rank() != 1) continue;
    const std::vector<std::string> own = Dimensions(Attributes(s, other));
    if (own.size() == 1 && group + own[0] == other && taken.insert(a).second) {
      out.push_back(box_of(a, /*whole=*/true));
    }
  }
  for (size_t i = 0; i < out.size(); ++i) {  // bounds of the dimension coordinates
    for (std::string& n : NamesIn(Attributes(s, s.base.arrays[out[i].array].path()), "bounds")) {
      named.push_back(std::move(n));
    }
  }
  for (size_t i = 0; i < named.size(); ++i) {  // grows with the bounds of named coordinates
    auto it = s.array_by_path.find(group + named[i]);
    if (it == s.array_by_path.end() || !taken.insert(it->second).second) continue;
    out.push_back(box_of(it->second, /*whole=*/false));
    for (std::string& n : NamesIn(Attributes(s, group + named[i]), "bounds")) {
      named.push_back(std::move(n));
    }
  }
  // Not only the arrays above: any array of the group with time units is decoded on open, and
  // so are its bounds (xarray gives them the units of the array they bound).
  for (size_t a = 0; a < s.base.arrays.size(); ++a) {
    const std::string& other = s.base.arrays[a].path();
    const std::optional<json::Value> other_attrs = Attributes(s, other);
    if (GroupOf(other) != group || !HasTimeUnits(other_attrs)) continue;
    AddEnds(a, s.base.arrays[a].grid(), out);
    for (const std::string& n : NamesIn(other_attrs, "bounds")) {
      auto it = s.array_by_path.find(group + n);
      if (it != s.array_by_path.end()) AddEnds(it->second, s.base.arrays[it->second].grid(), out);
    }
  }
  return out;
}

}  // namespace kerchunk::pack::internal
