#include "kerchunk/bench/synthetic_refs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <unordered_map>

#include "kerchunk/json/json_value.h"

namespace kerchunk {
namespace {

// Random numbers from the raw output of mt19937_64 only (whose sequence the standard fixes), so
// the set is the same with every standard library; std::normal_distribution is not.
class Random {
 public:
  explicit Random(uint64_t seed) : engine_(seed) {}
  double Uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  bool Chance(double p) { return Uniform() < p; }
  uint64_t Below(uint64_t n) { return n ? engine_() % n : 0; }
  double Normal() {  // Box-Muller
    double u1 = std::max(Uniform(), 1e-300), u2 = Uniform();
    return std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
  }

 private:
  std::mt19937_64 engine_;
};

json::Value UintArray(const std::vector<uint64_t>& v) {
  json::Value a = json::Value::MakeArray();
  for (uint64_t x : v) a.Push(json::Value::Uint(x));
  return a;
}

std::string Zarray(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& chunks,
                   std::string_view dtype, bool compressed) {
  json::Value z = json::Value::MakeObject();
  z.Set("chunks", UintArray(chunks));
  if (compressed) {
    json::Value c = json::Value::MakeObject();
    c.Set("id", json::Value::String("zlib"));
    c.Set("level", json::Value::Int(4));
    z.Set("compressor", c);
    json::Value shuffle = json::Value::MakeObject();
    shuffle.Set("elementsize", json::Value::Int(4));
    shuffle.Set("id", json::Value::String("shuffle"));
    z.Set("filters", json::Value::MakeArray({shuffle}));
  } else {
    z.Set("compressor", json::Value::Null());
    z.Set("filters", json::Value::Null());
  }
  z.Set("dtype", json::Value::String(std::string(dtype)));
  z.Set("fill_value", compressed ? json::Value::String("NaN") : json::Value::Null());
  z.Set("order", json::Value::String("C"));
  z.Set("shape", UintArray(shape));
  z.Set("zarr_format", json::Value::Int(2));
  return z.Dump();
}

struct VariableInfo {
  std::string name, long_name, units;
  double mean_length;  // bytes of a compressed chunk
};

VariableInfo Variable(uint32_t v) {
  static const VariableInfo kKnown[] = {
      {"t2m", "2 metre temperature", "K", 141000},
      {"tp", "Total precipitation", "m", 58000},
      {"sst", "Sea surface temperature", "K", 96000},
  };
  if (v < 3) return kKnown[v];
  return {fmt::format("var{}", v), fmt::format("Variable {}", v), "1", 80000.0 + 7000.0 * v};
}

std::string FileUrl(uint32_t day) {
  uint32_t year = 2020 + day / 372, month = 1 + day / 31 % 12, d = 1 + day % 31;
  return fmt::format(
      "s3://climate-reanalysis-archive/single-levels/hourly/{0:04d}/{1:02d}/"
      "reanalysis-sfc-0.25deg-{0:04d}{1:02d}{2:02d}-v1.1.nc",
      year, month, d);
}

}  // namespace

ReferenceSet SyntheticReferenceSet(const SyntheticRefsOptions& o) {
  Random rng(o.seed);
  ReferenceSet r;
  r.SetText(".zgroup", R"({"zarr_format":2})");
  r.SetText(".zattrs",
            R"({"Conventions":"CF-1.7","history":"synthetic reanalysis index for benchmarks",)"
            R"("institution":"kerchunk test suite","source":"SyntheticReferenceSet"})");
  const uint64_t steps = uint64_t{o.files} * o.steps_per_file;
  const size_t rank = o.spatial_shape.size();

  // Metadata and arrays: time, the spatial coordinates, then the data variables.
  r.SetText("time/.zarray", Zarray({steps}, {o.steps_per_file}, "<i8", false));
  r.SetText("time/.zattrs", R"({"_ARRAY_DIMENSIONS":["time"],"calendar":"proleptic_gregorian",)"
                            R"("units":"hours since 2020-01-01"})");
  // Arrays are addressed by index: AddArray may move the ones added before.
  const size_t time = r.arrays.size();
  r.AddArray("time", *ChunkGrid::Make({steps}, {o.steps_per_file}));
  std::vector<size_t> coords;
  std::vector<std::string> dim_names;
  for (size_t d = 0; d < rank; ++d) {
    std::string name = rank == 2 ? (d == 0 ? "latitude" : "longitude") : fmt::format("y{}", d);
    dim_names.push_back(name);
    r.SetText(name + "/.zarray", Zarray({o.spatial_shape[d]}, {o.spatial_shape[d]}, "<f8", false));
    r.SetText(name + "/.zattrs",
              fmt::format(R"({{"_ARRAY_DIMENSIONS":["{}"],"units":"degrees"}})", name));
    coords.push_back(r.arrays.size());
    r.AddArray(name, *ChunkGrid::Make({o.spatial_shape[d]}, {o.spatial_shape[d]}));
  }
  std::vector<uint64_t> shape = {steps}, chunks = {1};
  shape.insert(shape.end(), o.spatial_shape.begin(), o.spatial_shape.end());
  chunks.insert(chunks.end(), o.spatial_chunks.begin(), o.spatial_chunks.end());
  std::vector<size_t> vars;
  for (uint32_t v = 0; v < o.variables; ++v) {
    VariableInfo info = Variable(v);
    r.SetText(info.name + "/.zarray", Zarray(shape, chunks, "<f4", true));
    std::string dims = "\"time\"";
    for (const auto& n : dim_names) dims += fmt::format(",\"{}\"", n);
    r.SetText(info.name + "/.zattrs",
              fmt::format(R"({{"_ARRAY_DIMENSIONS":[{}],"long_name":"{}","units":"{}"}})", dims,
                          info.long_name, info.units));
    vars.push_back(r.arrays.size());
    r.AddArray(info.name, *ChunkGrid::Make(shape, chunks));
  }
  if (vars.empty()) {
    (void)r.Finalize();
    return r;
  }

  // Land-only spatial chunks of the last variable, the same in every file.
  const ChunkGrid& grid = r.arrays[vars[0]].grid();
  const uint64_t spatial = grid.num_chunks() / std::max<uint64_t>(1, steps);
  std::vector<bool> land(spatial, false);
  for (uint64_t p = 0; p < spatial; ++p) land[p] = rng.Chance(o.land_fraction);

  for (uint32_t f = 0; f < o.files; ++f) {
    uint32_t url = r.urls.Intern(FileUrl(f));
    uint64_t offset = 16384 + rng.Below(8192);  // superblock, header, attributes
    auto place = [&](size_t array, uint64_t chunk, uint64_t length) {
      if (rng.Chance(o.gap_probability)) offset += 512 + rng.Below(3584);
      r.arrays[array].AddRange(chunk, url, offset, length);
      offset += length;
    };
    if (f == 0) {
      for (size_t d = 0; d < rank; ++d) place(coords[d], 0, 8 * o.spatial_shape[d]);
    }
    place(time, f, 8 * uint64_t{o.steps_per_file});
    for (uint32_t v = 0; v < o.variables; ++v) {
      const bool last = v + 1 == o.variables && o.variables > 1;
      const double mean = Variable(v).mean_length;
      offset += 2048 + rng.Below(2048);  // the variable's object header and chunk index root
      for (uint64_t t = uint64_t{f} * o.steps_per_file; t < uint64_t{f + 1} * o.steps_per_file;
           ++t) {
        double drift = o.length_drift * std::sin(2 * std::numbers::pi * (t % 24) / 24.0 + v);
        for (uint64_t p = 0; p < spatial; ++p) {
          if (last && (land[p] || rng.Chance(o.missing))) continue;
          double length = mean + drift + o.length_jitter * rng.Normal();
          place(vars[v], t * spatial + p, static_cast<uint64_t>(std::max(1.0, std::round(length))));
        }
      }
    }
  }
  (void)r.Finalize();
  return r;
}

double ChunkLengthEntropyBits(const ReferenceSet& refs) {
  std::unordered_map<uint64_t, uint64_t> counts;
  uint64_t n = 0;
  for (const ArrayRefs& a : refs.arrays) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (a.urls()[i] > ArrayRefs::kMaxUrlId || a.lengths()[i] == ArrayRefs::kWholeFileLength) {
        continue;
      }
      ++counts[a.lengths()[i]];
      ++n;
    }
  }
  double bits = 0;
  for (const auto& [length, c] : counts) {
    double p = static_cast<double>(c) / static_cast<double>(n);
    bits -= p * std::log2(p);
  }
  return bits;
}

}  // namespace kerchunk
