#include "support/refs_testing.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "kerchunk/json/json_value.h"

namespace kerchunk::testing {
namespace {

// A value with URL ids replaced by URLs, comparable across reference sets.
struct Resolved {
  int kind;  // EntryValue::Kind or 10 + RefKind for chunks
  std::string data;
  std::string url;
  uint64_t offset = 0, length = 0;
  bool operator==(const Resolved&) const = default;
  std::string Show() const {
    switch (kind) {
      case 0:
        return fmt::format("text \"{}\"", data.substr(0, 80));
      case 1:
        return fmt::format("base64 of {} bytes", data.size());
      case 2:
        return fmt::format("[\"{}\", {}, {}]", url, offset, length);
      case 3:
        return fmt::format("[\"{}\"]", url);
      default:
        return fmt::format("json {}", data.substr(0, 80));
    }
  }
};

std::map<std::string, Resolved> Flatten(const ReferenceSet& r) {
  std::map<std::string, Resolved> out;
  for (const auto& e : r.entries) {
    const auto& v = e.value;
    Resolved x{static_cast<int>(v.kind), v.data, "", v.offset, v.length};
    if (v.kind == EntryValue::Kind::kRange || v.kind == EntryValue::Kind::kWholeFile) {
      x.url = r.urls[v.url];
      x.data.clear();
    }
    out[e.key] = x;
  }
  for (const auto& a : r.arrays) {
    std::string prefix = a.KeyPrefix();
    for (size_t i = 0; i < a.size(); ++i) {
      ChunkRef c = a.Get(i);
      Resolved x;
      switch (c.kind) {
        case RefKind::kInline:
          x = {c.base64 ? 1 : 0, std::string(c.data), "", 0, 0};
          break;
        case RefKind::kRange:
          x = {2, "", r.urls[c.url], c.offset, c.length};
          break;
        case RefKind::kWholeFile:
          x = {3, "", r.urls[c.url], 0, 0};
          break;
      }
      out[prefix + a.grid().Key(a.chunk_index(i))] = x;
    }
  }
  return out;
}

}  // namespace

::testing::AssertionResult SameReferences(const ReferenceSet& a, const ReferenceSet& b) {
  auto fa = Flatten(a), fb = Flatten(b);
  for (const auto& [k, v] : fa) {
    auto it = fb.find(k);
    if (it == fb.end()) {
      return ::testing::AssertionFailure() << "key \"" << k << "\" only in the first set ("
                                           << fa.size() << " vs " << fb.size() << " keys)";
    }
    if (!(it->second == v)) {
      return ::testing::AssertionFailure()
             << "key \"" << k << "\": " << v.Show() << " vs " << it->second.Show();
    }
  }
  for (const auto& [k, v] : fb) {
    if (!fa.count(k)) {
      return ::testing::AssertionFailure() << "key \"" << k << "\" only in the second set ("
                                           << fa.size() << " vs " << fb.size() << " keys)";
    }
  }
  return ::testing::AssertionSuccess();
}

// Lays the byte ranges of `r` out again as files hold them (see RandomRefsOptions::relayout_p).
void Relayout(ReferenceSet& r, std::mt19937_64& rng, const std::vector<uint32_t>& files) {
  auto uniform = [&](uint64_t n) { return n ? rng() % n : 0; };
  auto chance = [&](double p) { return std::uniform_real_distribution<>(0, 1)(rng) < p; };
  // Arrays grouped by chunk counts, each group in chunk-major or variable-major order.
  std::map<std::vector<uint64_t>, std::vector<size_t>> groups;
  for (size_t a = 0; a < r.arrays.size(); ++a) groups[r.arrays[a].grid().counts()].push_back(a);
  struct Slot {
    size_t array, row;
  };
  std::vector<Slot> order;
  for (const auto& [counts, members] : groups) {
    std::vector<Slot> slots;
    for (size_t a : members) {
      for (size_t i = 0; i < r.arrays[a].size(); ++i) slots.push_back({a, i});
    }
    if (chance(0.5)) {  // chunk-major: by chunk index, then array
      std::stable_sort(slots.begin(), slots.end(), [&](const Slot& x, const Slot& y) {
        return r.arrays[x.array].chunk_index(x.row) < r.arrays[y.array].chunk_index(y.row);
      });
    }
    order.insert(order.end(), slots.begin(), slots.end());
  }
  const uint64_t per_file = 1 + uniform(order.size() + 1);
  std::vector<std::vector<ChunkRef>> refs(r.arrays.size());
  for (size_t a = 0; a < r.arrays.size(); ++a) {
    for (size_t i = 0; i < r.arrays[a].size(); ++i) refs[a].push_back(r.arrays[a].Get(i));
  }
  uint64_t offset = 0, fixed = 1 + uniform(5000);
  for (size_t k = 0; k < order.size(); ++k) {
    ChunkRef& c = refs[order[k].array][order[k].row];
    if (c.kind != RefKind::kRange) continue;
    if (k % per_file == 0) offset = uniform(4096);
    c.url = files[(k / per_file) % files.size()];
    if (chance(0.05)) offset += uniform(3) == 0 ? fixed : uniform(2000);  // a gap (maybe = length)
    c.offset = offset;
    if (chance(0.02)) c.length = 0;
    offset += c.length;
  }
  for (size_t k = 0; k + 1 < order.size(); ++k) {  // a few chunks out of order
    ChunkRef& x = refs[order[k].array][order[k].row];
    ChunkRef& y = refs[order[k + 1].array][order[k + 1].row];
    if (x.kind == RefKind::kRange && y.kind == RefKind::kRange && chance(0.03)) {
      std::swap(x.offset, y.offset);
    }
  }
  // Inline values in `refs` still point into the old arrays: replace each only once copied.
  for (size_t a = 0; a < r.arrays.size(); ++a) {
    ArrayRefs fresh(r.arrays[a].path(), r.arrays[a].grid());
    for (size_t i = 0; i < refs[a].size(); ++i) fresh.Add(r.arrays[a].chunk_index(i), refs[a][i]);
    r.arrays[a] = std::move(fresh);
  }
}

ReferenceSet RandomReferenceSet(std::mt19937_64& rng, const RandomRefsOptions& o) {
  auto uniform = [&](uint64_t n) { return n ? rng() % n : 0; };
  auto chance = [&](double p) { return std::uniform_real_distribution<>(0, 1)(rng) < p; };
  // Draws only when p > 0, so options left at 0 do not change the sets of a seed.
  auto maybe = [&](double p) { return p > 0 && chance(p); };
  ReferenceSet r;
  r.SetText(".zgroup", R"({"zarr_format":2})");
  r.SetText(".zattrs", R"({"title":"random"})");
  int nfiles = 1 + static_cast<int>(uniform(o.max_files));
  std::vector<uint32_t> files;
  for (int f = 0; f < nfiles; ++f) {
    files.push_back(r.urls.Intern(fmt::format("s3://bucket/some/where/file_{:04d}.nc", f)));
  }
  int narrays = 1 + static_cast<int>(uniform(o.max_arrays));
  std::vector<uint64_t> previous_shape, previous_chunks;
  for (int ai = 0; ai < narrays; ++ai) {
    std::string path = (ai % 2) ? fmt::format("grp/var{}", ai) : fmt::format("var{}", ai);
    if (ai % 2) r.SetText("grp/.zgroup", R"({"zarr_format":2})");
    std::vector<uint64_t> shape, chunks;
    json::Value zarray = json::Value::MakeObject();
    json::Value js = json::Value::MakeArray(), jc = json::Value::MakeArray();
    if (ai > 0 && maybe(o.shared_grid_p)) {
      shape = previous_shape;
      chunks = previous_chunks;
      for (size_t d = 0; d < shape.size(); ++d) {
        js.Push(json::Value::Uint(shape[d]));
        jc.Push(json::Value::Uint(chunks[d]));
      }
    } else {
      int rank = static_cast<int>(uniform(o.max_rank + 1));
      for (int d = 0; d < rank; ++d) {
        uint64_t c = 1 + uniform(10);
        uint64_t n = 1 + uniform(o.max_chunks_per_dim);
        uint64_t s = (n - 1) * c + 1 + uniform(c);
        shape.push_back(s);
        chunks.push_back(c);
        js.Push(json::Value::Uint(s));
        jc.Push(json::Value::Uint(c));
      }
    }
    previous_shape = shape;
    previous_chunks = chunks;
    const bool fixed_length = maybe(o.fixed_length_p);
    const uint64_t fixed = fixed_length ? uniform(9000) : 0;
    zarray.Set("shape", js);
    zarray.Set("chunks", jc);
    zarray.Set("dtype", json::Value::String("<f4"));
    zarray.Set("fill_value", json::Value::String("NaN"));
    zarray.Set("compressor", json::Value::Null());
    zarray.Set("filters", json::Value::Null());
    zarray.Set("order", json::Value::String("C"));
    zarray.Set("zarr_format", json::Value::Int(2));
    r.SetText(path + "/.zarray", zarray.Dump());
    r.SetText(path + "/.zattrs", R"({"_ARRAY_DIMENSIONS":[]})");
    auto& arr = r.AddArray(path, *ChunkGrid::Make(shape, chunks));
    uint64_t offset = uniform(10000);
    for (uint64_t c = 0; c < arr.grid().num_chunks(); ++c) {
      if (chance(o.missing)) continue;
      if (chance(o.inline_p)) {
        std::string bytes(uniform(20), '\0');
        for (auto& ch : bytes) ch = static_cast<char>(chance(0.5) ? 'a' + uniform(26) : rng());
        bool b64 = chance(0.7);
        if (!b64) {
          for (auto& ch : bytes) ch = static_cast<char>('a' + uniform(26));
        }
        arr.AddInline(c, bytes, b64);
      } else if (chance(o.whole_file_p)) {
        arr.AddWholeFile(c, files[uniform(files.size())]);
      } else {
        uint64_t len = chance(0.5) ? 4000 : uniform(8000);
        if (fixed_length) len = fixed;
        arr.AddRange(c, files[uniform(files.size())], offset, len);
        offset = chance(0.8) ? offset + len + (chance(0.2) ? uniform(100) : 0) : uniform(1 << 30);
      }
    }
  }
  if (maybe(o.relayout_p)) Relayout(r, rng, files);
  for (int e = 0; e < o.extra_entries; ++e) {
    switch (uniform(4)) {
      case 0:
        r.entries.push_back({fmt::format("orphan{}/0.0", e),
                             {EntryValue::Kind::kRange, "", files[0], uniform(1000), uniform(99)}});
        break;
      case 1:
        r.entries.push_back(
            {fmt::format("var0/99.{}", e), {EntryValue::Kind::kBase64, "\x01\x02"}});
        break;
      case 2:
        r.entries.push_back(
            {fmt::format("other{}", e), {EntryValue::Kind::kJson, "{\"a\":[1,2,null]}"}});
        break;
      default:
        r.entries.push_back(
            {fmt::format("whole{}", e), {EntryValue::Kind::kWholeFile, "", files[0]}});
        break;
    }
  }
  (void)r.Finalize();
  return r;
}

}  // namespace kerchunk::testing
