#include "verify/cf_decoding.h"

#include <fmt/format.h>

#include <cmath>

namespace kerchunk::verify::internal {
namespace {

std::optional<double> Number(const json::Value* v) {
  if (v && v->is_number()) return v->as_double();
  if (v && v->is_string() && v->as_string() == "NaN") return NAN;
  if (v && v->is_array() && v->as_array().size() == 1) return Number(&v->as_array()[0]);
  return std::nullopt;
}

bool Same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

std::string Shown(double d) {
  json::Value v = json::Value::Double(d);
  return v.Dump();
}

}  // namespace

std::optional<double> CfDecoding::Decode(double x) const {
  if (fill_value && Same(x, *fill_value)) return std::nullopt;
  for (double m : missing_values) {
    if (Same(x, m)) return std::nullopt;
  }
  return x * scale_factor.value_or(1.0) + add_offset.value_or(0.0);
}

std::string CfDecoding::Describe() const {
  std::vector<std::string> parts;
  if (scale_factor) parts.push_back("scale_factor " + Shown(*scale_factor));
  if (add_offset) parts.push_back("add_offset " + Shown(*add_offset));
  if (fill_value) parts.push_back("_FillValue " + Shown(*fill_value));
  for (double m : missing_values) parts.push_back("missing_value " + Shown(m));
  if (is_unsigned) parts.push_back("_Unsigned true");
  if (parts.empty()) return "no CF attributes";
  return fmt::format("{}", fmt::join(parts, ", "));
}

CfDecoding IndexDecoding(const json::Value& attrs, const ZarrArrayMeta& meta) {
  CfDecoding d;
  auto find = [&](std::string_view name) { return attrs.is_object() ? attrs.Find(name) : nullptr; };
  d.scale_factor = Number(find("scale_factor"));
  d.add_offset = Number(find("add_offset"));
  d.fill_value = find("_FillValue") ? Number(find("_FillValue")) : Number(&meta.fill_value);
  if (const json::Value* m = find("missing_value")) {
    if (m->is_array()) {
      for (const json::Value& v : m->as_array()) {
        if (auto n = Number(&v)) d.missing_values.push_back(*n);
      }
    } else if (auto n = Number(m)) {
      d.missing_values.push_back(*n);
    }
  }
  const json::Value* u = find("_Unsigned");
  d.is_unsigned = u && u->is_string() && u->as_string() == "true";
  return d;
}

CfDecoding SourceDecoding(const std::function<std::vector<double>(const char*)>& numbers) {
  auto single = [&](const char* name) {
    std::vector<double> v = numbers(name);
    return v.size() == 1 ? std::optional<double>(v[0]) : std::nullopt;
  };
  CfDecoding d;
  d.scale_factor = single("scale_factor");
  d.add_offset = single("add_offset");
  d.fill_value = single("_FillValue");
  d.missing_values = numbers("missing_value");
  return d;
}

}  // namespace kerchunk::verify::internal
