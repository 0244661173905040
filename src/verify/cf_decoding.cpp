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
  // Units change what a reader shows only for times (numbers become dates); other units are
  // named by the units mismatch message.
  if (Time()) {
    parts.push_back(fmt::format("units \"{}\"", units));
    if (!calendar.empty()) parts.push_back(fmt::format("calendar \"{}\"", calendar));
  }
  if (parts.empty()) return "no CF attributes";
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::optional<CfTimeUnits> CfDecoding::Time() const {
  if (units.find(" since ") == std::string::npos) return std::nullopt;
  Result<CfCalendar> parsed_calendar = ParseCfCalendar(calendar);
  if (!parsed_calendar.ok()) return std::nullopt;
  Result<CfTimeUnits> time = ParseCfTimeUnits(units, *parsed_calendar);
  if (!time.ok()) return std::nullopt;
  return *time;
}

void InheritTimeAttributes(const CfDecoding& coordinate, CfDecoding& bounds) {
  if (!bounds.units.empty()) return;
  bounds.units = coordinate.units;
  if (bounds.calendar.empty()) bounds.calendar = coordinate.calendar;
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
  auto text = [&](std::string_view name) {
    const json::Value* v = find(name);
    return v && v->is_string() ? v->as_string() : std::string();
  };
  d.is_unsigned = text("_Unsigned") == "true";
  d.units = text("units");
  d.calendar = text("calendar");
  return d;
}

CfDecoding SourceDecoding(const std::function<std::vector<double>(const char*)>& numbers,
                          const std::function<std::string(const char*)>& text) {
  auto single = [&](const char* name) {
    std::vector<double> v = numbers(name);
    return v.size() == 1 ? std::optional<double>(v[0]) : std::nullopt;
  };
  CfDecoding d;
  d.scale_factor = single("scale_factor");
  d.add_offset = single("add_offset");
  d.fill_value = single("_FillValue");
  d.missing_values = numbers("missing_value");
  d.is_unsigned = text("_Unsigned") == "true";
  d.units = text("units");
  d.calendar = text("calendar");
  return d;
}

}  // namespace kerchunk::verify::internal
