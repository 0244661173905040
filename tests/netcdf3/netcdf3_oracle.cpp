#include "netcdf3/netcdf3_oracle.h"

#include <netcdf.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::testing {
namespace {

using ::testing::AssertionFailure;
using ::testing::AssertionResult;
using ::testing::AssertionSuccess;

struct NcFile {
  int id = -1;
  ~NcFile() {
    if (id >= 0) nc_close(id);
  }
};

std::string Dtype(nc_type t) {
  switch (t) {
    case NC_BYTE:
      return "|i1";
    case NC_CHAR:
      return "|S1";
    case NC_SHORT:
      return ">i2";
    case NC_INT:
      return ">i4";
    case NC_FLOAT:
      return ">f4";
    case NC_DOUBLE:
      return ">f8";
    case NC_UBYTE:
      return "|u1";
    case NC_USHORT:
      return ">u2";
    case NC_UINT:
      return ">u4";
    case NC_INT64:
      return ">i8";
    case NC_UINT64:
      return ">u8";
  }
  return "?";
}

// The same type in the host's byte order, for EncodeFillValue on netCDF-C's native values.
std::string NativeDtype(nc_type t) {
  std::string d = Dtype(t);
  if (d[0] == '>' && std::endian::native == std::endian::little) d[0] = '<';
  return d;
}

bool ValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size() || (n == 2 && c < 0xC2)) return false;
    for (size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

template <typename T>
T Load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

json::Value Element(nc_type t, const char* p) {
  switch (t) {
    case NC_BYTE:
      return json::Value::Int(Load<signed char>(p));
    case NC_SHORT:
      return json::Value::Int(Load<short>(p));
    case NC_INT:
      return json::Value::Int(Load<int>(p));
    case NC_FLOAT:
      return json::Value::Double(Load<float>(p));
    case NC_DOUBLE:
      return json::Value::Double(Load<double>(p));
    case NC_UBYTE:
      return json::Value::Int(Load<unsigned char>(p));
    case NC_USHORT:
      return json::Value::Int(Load<unsigned short>(p));
    case NC_UINT:
      return json::Value::Int(Load<unsigned int>(p));
    case NC_INT64:
      return json::Value::Int(Load<long long>(p));
    case NC_UINT64:
      return json::Value::Uint(Load<unsigned long long>(p));
  }
  return json::Value();
}

struct NcAttribute {
  std::string name;
  nc_type type = NC_NAT;
  size_t length = 0;
  std::string raw;  // native values
};

std::vector<NcAttribute> Attributes(int ncid, int varid) {
  int natts = 0;
  if (varid == NC_GLOBAL) {
    nc_inq_natts(ncid, &natts);
  } else {
    nc_inq_varnatts(ncid, varid, &natts);
  }
  std::vector<NcAttribute> out(natts);
  for (int i = 0; i < natts; ++i) {
    char name[NC_MAX_NAME + 1] = {};
    nc_inq_attname(ncid, varid, i, name);
    NcAttribute& a = out[i];
    a.name = name;
    nc_inq_att(ncid, varid, name, &a.type, &a.length);
    size_t size = 0;
    nc_inq_type(ncid, a.type, nullptr, &size);
    a.raw.resize(a.length * size);
    if (a.length > 0) nc_get_att(ncid, varid, name, a.raw.data());
  }
  return out;
}

// What the attribute must look like in .zattrs; `checkable` is false for text that is not UTF-8,
// whose replacement characters this oracle does not model.
json::Value ExpectedAttribute(const NcAttribute& a, bool* checkable) {
  *checkable = true;
  if (a.type == NC_CHAR) {
    std::string text;
    for (char c : a.raw) {
      if (c != '\0') text += c;
    }
    *checkable = ValidUtf8(text);
    return json::Value::String(text);
  }
  size_t size = a.length ? a.raw.size() / a.length : 0;
  if (a.length == 1) return Element(a.type, a.raw.data());
  json::Value list = json::Value::MakeArray();
  for (size_t i = 0; i < a.length; ++i) list.Push(Element(a.type, a.raw.data() + i * size));
  return list;
}

AssertionResult CompareAttributes(const std::vector<NcAttribute>& expected,
                                  const std::string& zattrs_text, const std::string& skip,
                                  const std::string& where, size_t extra_keys) {
  auto doc = json::Value::Parse(zattrs_text);
  if (!doc.ok() || !doc->is_object()) return AssertionFailure() << where << ": .zattrs not JSON";
  size_t compared = 0;
  for (const auto& a : expected) {
    if (a.name == skip) continue;
    ++compared;
    const json::Value* got = doc->Find(a.name);
    if (!got) return AssertionFailure() << where << ": attribute " << a.name << " missing";
    bool checkable;
    json::Value want = ExpectedAttribute(a, &checkable);
    if (!checkable) {
      if (!got->is_string()) return AssertionFailure() << where << ": " << a.name << " not text";
      continue;
    }
    if (!(want == *got)) {
      return AssertionFailure() << where << ": attribute " << a.name << ": expected " << want.Dump()
                                << ", got " << got->Dump();
    }
  }
  if (doc->as_object().size() != compared + extra_keys) {
    return AssertionFailure() << where << ": expected " << compared + extra_keys
                              << " .zattrs keys, got " << zattrs_text;
  }
  return AssertionSuccess();
}

const std::string* EntryText(const ReferenceSet& refs, const std::string& key) {
  const Entry* e = refs.FindEntry(key);
  return e && e->value.kind == EntryValue::Kind::kText ? &e->value.data : nullptr;
}

void ToNative(std::string& bytes, size_t element_size) {
  if (std::endian::native == std::endian::big || element_size == 1) return;
  for (size_t i = 0; i + element_size <= bytes.size(); i += element_size) {
    std::reverse(bytes.begin() + i, bytes.begin() + i + element_size);
  }
}

// Reassembles the variable from its chunk references.
AssertionResult Reassemble(const ArrayRefs& array, const std::string& file, size_t element_size,
                           bool is_record, std::string& out) {
  const ChunkGrid& grid = array.grid();
  const auto& shape = grid.shape();
  uint64_t chunk_elements = 1;
  for (size_t d = 0; d < grid.rank(); ++d) {
    uint64_t want = (d == 0 && is_record) ? 1 : shape[d];
    if (grid.chunks()[d] != std::max<uint64_t>(want, 1)) {
      return AssertionFailure() << array.path() << ": chunks[" << d << "] is " << grid.chunks()[d]
                                << ", expected " << want;
    }
    chunk_elements *= grid.chunks()[d];
  }
  uint64_t chunk_bytes = chunk_elements * element_size;
  uint64_t expected_chunks = out.empty() ? 0 : grid.num_chunks();
  if (array.size() != expected_chunks) {
    return AssertionFailure() << array.path() << ": expected " << expected_chunks << " chunks, got "
                              << array.size();
  }
  for (size_t i = 0; i < array.size(); ++i) {
    ChunkRef ref = array.Get(i);
    std::string_view bytes;
    if (ref.kind == RefKind::kInline) {
      bytes = ref.data;
    } else if (ref.kind == RefKind::kRange && ref.url == 0 && ref.offset <= file.size() &&
               ref.length <= file.size() - ref.offset) {
      bytes = std::string_view(file).substr(ref.offset, ref.length);
    } else {
      return AssertionFailure() << array.path() << ": chunk " << array.chunk_index(i)
                                << " is not a range inside the file";
    }
    uint64_t at = array.chunk_index(i) * chunk_bytes;
    if (bytes.size() != chunk_bytes || at + chunk_bytes > out.size()) {
      return AssertionFailure() << array.path() << ": chunk " << array.chunk_index(i) << " has "
                                << bytes.size() << " bytes, expected " << chunk_bytes;
    }
    out.replace(at, chunk_bytes, bytes);
  }
  ToNative(out, element_size);
  return AssertionSuccess();
}

AssertionResult CompareVariable(int ncid, int varid, int unlimited_dim, const std::string& file,
                                const ReferenceSet& refs) {
  char name_buffer[NC_MAX_NAME + 1] = {};
  nc_type type;
  int rank;
  int dim_ids[NC_MAX_VAR_DIMS];
  nc_inq_var(ncid, varid, name_buffer, &type, &rank, dim_ids, nullptr);
  std::string name = name_buffer;
  size_t element_size = 0;
  nc_inq_type(ncid, type, nullptr, &element_size);
  std::vector<uint64_t> shape;
  json::Value dims = json::Value::MakeArray();
  uint64_t elements = 1;
  for (int d = 0; d < rank; ++d) {
    char dim_name[NC_MAX_NAME + 1] = {};
    size_t length;
    nc_inq_dim(ncid, dim_ids[d], dim_name, &length);
    shape.push_back(length);
    dims.Push(json::Value::String(dim_name));
    elements *= length;
  }
  bool is_record = rank > 0 && dim_ids[0] == unlimited_dim;

  const std::string* zarray = EntryText(refs, name + "/.zarray");
  const std::string* zattrs = EntryText(refs, name + "/.zattrs");
  const ArrayRefs* array = refs.FindArray(name);
  if (!zarray || !zattrs || !array) return AssertionFailure() << name << ": keys missing";
  auto meta = ZarrArrayMeta::Parse(*zarray);
  if (!meta.ok()) return AssertionFailure() << name << ": " << meta.status().message();
  if (meta->dtype != Dtype(type) || meta->shape != shape || !meta->compressor.is_null() ||
      !meta->filters.is_null() || meta->order != 'C') {
    return AssertionFailure() << name << ": unexpected .zarray " << *zarray;
  }
  auto attributes = Attributes(ncid, varid);
  json::Value fill;
  std::string fill_attribute;
  for (const auto& a : attributes) {
    if (a.name == "_FillValue" && a.type == type && a.length == 1) {
      fill = EncodeFillValue(a.raw, NativeDtype(type));
      fill_attribute = a.name;
    }
  }
  if (!(meta->fill_value == fill)) {
    return AssertionFailure() << name << ": fill_value " << meta->fill_value.Dump() << ", expected "
                              << fill.Dump();
  }
  auto attrs = CompareAttributes(attributes, *zattrs, fill_attribute, name, 1);
  if (!attrs) return attrs;
  auto doc = json::Value::Parse(*zattrs);
  if (!(*doc->Find("_ARRAY_DIMENSIONS") == dims)) {
    return AssertionFailure() << name << ": _ARRAY_DIMENSIONS " << *zattrs;
  }

  std::string expected(elements * element_size, '\0');
  if (elements > 0 && nc_get_var(ncid, varid, expected.data()) != NC_NOERR) {
    return AssertionFailure() << name << ": nc_get_var failed";
  }
  std::string actual(expected.size(), '\0');
  auto assembled = Reassemble(*array, file, element_size, is_record, actual);
  if (!assembled) return assembled;
  if (actual != expected) {
    size_t i = 0;
    while (actual[i] == expected[i]) ++i;
    return AssertionFailure() << name << ": values differ from nc_get_var at element "
                              << i / element_size;
  }
  return AssertionSuccess();
}

}  // namespace

AssertionResult MatchesNetcdfC(const std::string& path, const ReferenceSet& refs,
                               uint64_t* variables_compared) {
  NcFile nc;
  if (int s = nc_open(path.c_str(), NC_NOWRITE, &nc.id); s != NC_NOERR) {
    return AssertionFailure() << path << ": netCDF-C cannot open it: " << nc_strerror(s);
  }
  auto file = ReadFileToString(path);
  if (!file.ok()) return AssertionFailure() << file.status().message();
  int nvars = 0, unlimited = -1;
  nc_inq(nc.id, nullptr, &nvars, nullptr, &unlimited);
  const std::string* zgroup = EntryText(refs, ".zgroup");
  const std::string* zattrs = EntryText(refs, ".zattrs");
  if (!zgroup || !(*json::Value::Parse(*zgroup) == *json::Value::Parse(R"({"zarr_format":2})"))) {
    return AssertionFailure() << path << ": no .zgroup";
  }
  if (!zattrs) return AssertionFailure() << path << ": no root .zattrs";
  auto globals = CompareAttributes(Attributes(nc.id, NC_GLOBAL), *zattrs, "", path, 0);
  if (!globals) return globals;
  if (refs.arrays.size() != static_cast<size_t>(nvars) ||
      refs.entries.size() != 2 + 2 * static_cast<size_t>(nvars)) {
    return AssertionFailure() << path << ": expected " << nvars << " arrays and " << 2 + 2 * nvars
                              << " entries, got " << refs.arrays.size() << " and "
                              << refs.entries.size();
  }
  for (int v = 0; v < nvars; ++v) {
    auto r = CompareVariable(nc.id, v, unlimited, *file, refs);
    if (!r) return AssertionFailure() << path << ": " << r.message();
    if (variables_compared) ++*variables_compared;
  }
  return AssertionSuccess();
}

}  // namespace kerchunk::testing
