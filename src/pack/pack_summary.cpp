#include <fmt/format.h>
#include <fmt/ostream.h>

#include "kerchunk/pack/pack.h"

namespace kerchunk::pack {
namespace {

std::string Bytes(uint64_t n) {
  if (n < 10'000) return fmt::format("{} B", n);
  if (n < 10'000'000) return fmt::format("{:.1f} kB", static_cast<double>(n) / 1e3);
  if (n < 10'000'000'000) return fmt::format("{:.1f} MB", static_cast<double>(n) / 1e6);
  return fmt::format("{:.2f} GB", static_cast<double>(n) / 1e9);
}

std::string Variables(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < 6; ++i) {
    if (i) out += ", ";
    out += names[i];
  }
  if (names.size() > 6) out += fmt::format(" and {} more", names.size() - 6);
  return out;
}

std::string Grid(const std::vector<uint64_t>& counts) {
  if (counts.empty()) return "scalar";
  std::string out;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (i) out += 'x';
    out += std::to_string(counts[i]);
  }
  return out;
}

}  // namespace

void WritePackSummary(const PackSummary& s, std::ostream& out) {
  double ratio = s.output_bytes ? static_cast<double>(s.input_bytes) / s.output_bytes : 0;
  double per_ref = s.keys ? static_cast<double>(s.output_bytes) / s.keys : 0;
  fmt::print(out, "{} keys ({} chunk references) in {} -> {} out: {:.1f}x smaller, {:.2f} B/key\n",
             s.keys, s.chunk_references, Bytes(s.input_bytes), Bytes(s.output_bytes), ratio,
             per_ref);
  fmt::print(out, "{} references in {} generator{}, {} keys verbatim (metadata, inline values)\n",
             s.generated, s.generators.size(), s.generators.size() == 1 ? "" : "s", s.verbatim);
  for (size_t i = 0; i < s.generators.size(); ++i) {
    const GeneratorSummary& g = s.generators[i];
    fmt::print(out,
               "  generator {}: {} [{}]: {} refs, {}, lengths {}, gfactor {:.3f} (modal length "
               "{}, {} unique, {} skipped of {} slots, {} gaps, {} file switches)\n",
               i, Variables(g.variables), Grid(g.chunk_grid), g.references, g.order, g.predictor,
               g.gfactor, g.modal_length, g.unique, g.skipped, g.slots, g.gaps, g.file_switches);
  }
}

}  // namespace kerchunk::pack
