#include "combine/value_attributes.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace kerchunk::internal {
namespace {

bool IsFloat(const json::Value& v) { return v.type() == json::Value::Type::kDouble; }

// "0.1" for a double that is exactly the 32-bit float 0.1f, whose shortest double spelling
// (0.10000000149011612) hides where it came from; empty otherwise.
std::string Float32Spelling(double d) {
  if (!std::isfinite(d)) return {};
  float f = static_cast<float>(d);
  if (static_cast<double>(f) != d) return {};
  char as_float[32], as_double[32];
  auto fend = std::to_chars(as_float, as_float + sizeof as_float, f).ptr;
  auto dend = std::to_chars(as_double, as_double + sizeof as_double, d).ptr;
  if (fend - as_float >= dend - as_double) return {};
  return std::string(as_float, fend);
}

// How a value is shown in messages: its JSON, and what kind of number it is when that is part
// of the difference.
std::string Shown(const json::Value* v, const json::Value* other) {
  if (!v) return "absent";
  std::string out = v->Dump();
  if (!v->is_number()) return out;
  if (other && other->is_number() && IsFloat(*v) != IsFloat(*other)) {
    return out + (IsFloat(*v) ? " (a floating-point number)" : " (an integer)");
  }
  if (IsFloat(*v)) {
    std::string f = Float32Spelling(v->as_double());
    if (!f.empty()) out += " (" + f + " as a 32-bit float)";
  }
  return out;
}

void Compare(const json::Value* first, const json::Value* value, std::string variable,
             std::string attribute, bool zarray_fill, std::vector<AttributeConflict>& out) {
  if (!first && !value) return;
  if (first && value && SameAttributeValue(*first, *value)) return;
  out.push_back({std::move(variable), std::move(attribute), zarray_fill, Shown(value, first),
                 Shown(first, value)});
}

std::string Name(const AttributeConflict& c) {
  return fmt::format("\"{}\"{}", c.attribute, c.zarray_fill ? " (.zarray fill_value)" : "");
}

}  // namespace

bool SameAttributeValue(const json::Value& a, const json::Value& b) {
  if (a.is_number() && b.is_number()) return IsFloat(a) == IsFloat(b) && a == b;
  if (a.is_array() && b.is_array()) {
    const auto &x = a.as_array(), &y = b.as_array();
    return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin(), SameAttributeValue);
  }
  return a == b;
}

std::vector<AttributeConflict> FindAttributeConflicts(const PartView& first, const PartView& part,
                                                      const std::string& path,
                                                      const std::vector<std::string_view>& skip) {
  std::vector<AttributeConflict> out;
  const PartVariable* a = first.Find(path);
  const PartVariable* b = part.Find(path);
  if (!a || !b) return out;
  for (std::string_view name : kValueAttributes) {
    if (std::find(skip.begin(), skip.end(), name) != skip.end()) continue;
    Compare(a->attrs.Find(name), b->attrs.Find(name), path, std::string(name), false, out);
  }
  // zarr masks the .zarray fill_value as xarray's _FillValue; HDF5 scans keep it only there.
  if (std::find(skip.begin(), skip.end(), "_FillValue") == skip.end()) {
    Compare(&a->meta.fill_value, &b->meta.fill_value, path, "_FillValue", true, out);
  }
  return out;
}

Status AttributeConflictError(const PartView& first, const PartView& part,
                              const AttributeConflict& c) {
  return InvalidArgumentError(
      "{}: variable \"{}\": attribute {} is {} here but {} in {}; the index would decode this "
      "file's values with the first file's attributes (--on-attribute-conflict first keeps them "
      "anyway)",
      part.label, c.variable, Name(c), c.value, c.first_value, first.label);
}

std::string AttributeConflictWarning(const PartView& part,
                                     const std::vector<AttributeConflict>& conflicts) {
  std::string list;
  for (const AttributeConflict& c : conflicts) {
    list += fmt::format("{}\"{}\" {} {} (first part: {})", list.empty() ? "" : "; ", c.variable,
                        Name(c), c.value, c.first_value);
  }
  return fmt::format(
      "{}: value attributes differ from the first part's, which are kept, so this file's values "
      "read wrongly: {}",
      part.label, list);
}

}  // namespace kerchunk::internal
