// `kerchunk pack`'s summary: what the user wants first (how much smaller, bytes per reference,
// where the bytes went), the generator mechanics only with --verbose.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "kerchunk/commands/pack.h"
#include "kerchunk/util/byte_size.h"

namespace kerchunk::pack {
namespace {

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

double Per(uint64_t bytes, uint64_t count) {
  return count ? static_cast<double>(bytes) / static_cast<double>(count) : 0.0;
}

std::string Plural(uint64_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

void WriteGenerator(size_t i, const GeneratorSummary& g, std::ostream& out) {
  fmt::print(
      out,
      "  generator {}: {} [{}]: {} in {} ({:.2f} B each); {} order, lengths predicted "
      "{}: most common length {} B, {} of other lengths; {} of {} chunk slots unwritten, {} gaps, "
      "{} file switches (gfactor {:.3f})\n",
      i, Variables(g.variables), Grid(g.chunk_grid), Plural(g.references, "reference"),
      FormatBytes(g.bytes), Per(g.bytes, g.references), g.order,
      g.predictor == "plain" ? "not at all" : "by " + g.predictor, g.modal_length, g.unique,
      g.skipped, g.slots, g.gaps, g.file_switches, g.gfactor);
}

}  // namespace

void WritePackSummary(const PackSummary& s, std::ostream& out, bool verbose) {
  const double ratio = Per(s.input_bytes, s.output_bytes);
  // In the compact form each part's share of the JSON text, scaled to the compressed file.
  const double scale = s.text_bytes ? Per(s.output_bytes, s.text_bytes) : 1.0;
  auto share = [&](uint64_t bytes) {
    return static_cast<uint64_t>(static_cast<double>(bytes) * scale + 0.5);
  };
  uint64_t generator_bytes = 0;
  for (const GeneratorSummary& g : s.generators) generator_bytes += g.bytes;
  generator_bytes = share(generator_bytes);
  const uint64_t inline_bytes = share(s.inline_bytes), verbatim_bytes = share(s.verbatim_bytes);
  const uint64_t rest =
      s.output_bytes - std::min(s.output_bytes, generator_bytes + verbatim_bytes + inline_bytes);
  fmt::print(out, "kerchunk pack: wrote {}\n", s.output == "-" ? "standard output" : s.output);
  fmt::print(out, "  {:<9}{} of Kerchunk JSON, {} ({} of them chunk references)\n", "input",
             FormatBytes(s.input_bytes), Plural(s.keys, "key"), s.chunk_references);
  fmt::print(out, "  {:<9}{}: {:.1f}x smaller, {:.2f} B per chunk reference ({:.2f} B per key)\n",
             "output", FormatBytes(s.output_bytes), ratio, Per(s.output_bytes, s.chunk_references),
             Per(s.output_bytes, s.keys));
  fmt::print(out, "  {:<9}{:<10}{} in {}\n", "where", FormatBytes(generator_bytes),
             Plural(s.generated, "reference"), Plural(s.generators.size(), "generator"));
  if (s.inline_values) {
    fmt::print(out, "  {:<9}{:<10}{} of inline chunk data ({} distinct{})\n", "",
               FormatBytes(inline_bytes), Plural(s.inline_values, "value"), s.inline_distinct,
               s.inline_inflated
                   ? fmt::format(", {} zlib streams stored inflated", s.inline_inflated)
                   : "");
  }
  fmt::print(out, "  {:<9}{:<10}{} kept as Kerchunk JSON (metadata, other values)\n", "",
             FormatBytes(verbatim_bytes), Plural(s.verbatim, "key"));
  fmt::print(out, "  {:<9}{:<10}URLs and header\n", "", FormatBytes(rest));
  if (s.text_bytes) {
    fmt::print(out,
               "  {:<9}(shares of the {} of packed JSON and binary fields the file compresses)\n",
               "", FormatBytes(s.text_bytes));
  }
  if (!verbose) return;
  for (size_t i = 0; i < s.generators.size(); ++i) WriteGenerator(i, s.generators[i], out);
}

}  // namespace kerchunk::pack
