//===- Render.cpp - Text and SVG views of a simulated schedule ------------===//

#include "mpmd/Schedule/Render.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace mlir::mpmd::schedule {

namespace {

bool isWholeNumber(double value) {
  return std::abs(value - std::round(value)) < 1e-9;
}

/// Whether every start and end of the timeline, times `scale`, is whole.
bool hasWholeTimes(const SimulationResult &result, double scale) {
  return llvm::all_of(result.timeline, [&](const auto &timed) {
    return llvm::all_of(timed, [&](const TimedAction &entry) {
      return isWholeNumber(entry.start * scale) &&
             isWholeNumber(entry.end * scale);
    });
  });
}

/// Columns per time unit: the smallest whole number up to 16 that puts every
/// start and end on a column boundary within `maxColumns` (1 for integer
/// costs), else the makespan scaled to `maxColumns`.
double getColumnsPerUnit(const SimulationResult &result, int64_t maxColumns) {
  if (result.makespan <= 0)
    return 1;
  for (int scale = 1; scale <= 16 && result.makespan * scale <= maxColumns;
       ++scale)
    if (hasWholeTimes(result, scale))
      return scale;
  return static_cast<double>(maxColumns) / result.makespan;
}

std::string formatPercent(double fraction) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.2f%%", 100 * fraction);
  return text;
}

/// `text` with the characters XML reserves escaped.
std::string escapeXml(llvm::StringRef text) {
  std::string escaped;
  for (char c : text) {
    switch (c) {
    case '<':
      escaped += "&lt;";
      break;
    case '>':
      escaped += "&gt;";
      break;
    case '&':
      escaped += "&amp;";
      break;
    case '"':
      escaped += "&quot;";
      break;
    default:
      escaped += c;
    }
  }
  return escaped;
}

} // namespace

void printSummary(const SimulationResult &result, llvm::raw_ostream &os) {
  os << "makespan " << formatTime(result.makespan) << ", total bubble "
     << formatPercent(result.getTotalBubbleFraction()) << "\n";
  os << llvm::format("%-6s %10s %8s %14s %17s\n", "mesh", "busy", "bubble",
                     "active bubble", "peak activations");
  for (auto [mesh, stats] : llvm::enumerate(result.meshes))
    os << llvm::format("%-6d %10s %8s %14s %17d\n", static_cast<int>(mesh),
                       formatTime(stats.busy).c_str(),
                       formatPercent(stats.bubbleFraction).c_str(),
                       formatPercent(stats.activeBubbleFraction).c_str(),
                       static_cast<int>(stats.peakLiveActivations));
}

void printAsciiTimeline(const Schedule &schedule,
                        const SimulationResult &result, llvm::raw_ostream &os,
                        int64_t maxColumns) {
  const double columnsPerUnit = getColumnsPerUnit(result, maxColumns);
  auto columnOf = [&](double time) {
    return static_cast<int64_t>(std::llround(time * columnsPerUnit));
  };
  const int64_t columns = columnOf(result.makespan);
  const std::string meshLabel = "mesh " + std::to_string(result.meshes.size());
  const size_t labelWidth = meshLabel.size() + 1;

  // The ruler: the time at every tenth column.
  std::string ruler = "time";
  ruler.resize(labelWidth, ' ');
  for (int64_t column = 0; column < columns; column += 10) {
    std::string time = formatTime(column / columnsPerUnit);
    ruler.resize(labelWidth + column, ' ');
    ruler += time;
  }
  os << ruler << "\n";

  const std::vector<int64_t> chunkOfStage = schedule.getLocalChunks();
  for (auto [mesh, timed] : llvm::enumerate(result.timeline)) {
    std::string row = "mesh " + std::to_string(mesh);
    row.resize(labelWidth, ' ');
    std::string cells(columns, '.');
    for (const TimedAction &entry : timed) {
      const int64_t first = columnOf(entry.start), last = columnOf(entry.end);
      if (first == last)
        continue;
      char letter = getActionKindLetter(entry.action.kind);
      if (chunkOfStage[entry.action.stage] % 2 == 1)
        letter = std::tolower(letter);
      std::string label = letter + std::to_string(entry.action.microbatch);
      for (int64_t column = first; column < last; ++column)
        cells[column] = column - first < static_cast<int64_t>(label.size())
                            ? label[column - first]
                            : '-';
    }
    os << row << cells << "\n";
  }
}

void printSvgTimeline(const Schedule &schedule, const SimulationResult &result,
                      llvm::StringRef title, llvm::raw_ostream &os) {
  constexpr double kLeft = 70, kTop = 40, kRowHeight = 30, kBarHeight = 24,
                   kPlotWidth = 960;
  const double unit = result.makespan > 0 ? kPlotWidth / result.makespan : 1;
  const int64_t meshes = result.meshes.size();
  const double axisY = kTop + meshes * kRowHeight + 4;
  const double width = kLeft + kPlotWidth + 20, height = axisY + 60;
  // Per kind: the colour of even chunks, then of odd chunks (lighter).
  const char *const fill[3][2] = {
      {"#4e79a7", "#a0cbe8"}, {"#59a14f", "#8cd17d"}, {"#b07aa1", "#d4a6c8"}};
  const char *const kindName[3] = {"forward (F)", "backward (B)",
                                   "weight gradient (W)"};

  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
     << formatTime(width) << "\" height=\"" << formatTime(height)
     << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  os << "<text x=\"" << formatTime(kLeft) << "\" y=\"22\" font-size=\"14\">"
     << escapeXml(title) << " (makespan " << formatTime(result.makespan)
     << ", bubble " << formatPercent(result.getTotalBubbleFraction())
     << ")</text>\n";
  const std::vector<int64_t> chunkOfStage = schedule.getLocalChunks();
  for (auto [mesh, timed] : llvm::enumerate(result.timeline)) {
    const double y = kTop + mesh * kRowHeight;
    os << "<text x=\"8\" y=\"" << formatTime(y + kBarHeight / 2 + 4)
       << "\">mesh " << mesh << "</text>\n";
    for (const TimedAction &entry : timed) {
      const int kind = static_cast<int>(entry.action.kind);
      const int shade = chunkOfStage[entry.action.stage] % 2;
      const double x = kLeft + entry.start * unit,
                   barWidth = (entry.end - entry.start) * unit;
      os << "<rect x=\"" << formatTime(x) << "\" y=\"" << formatTime(y)
         << "\" width=\"" << formatTime(barWidth) << "\" height=\""
         << formatTime(kBarHeight) << "\" fill=\"" << fill[kind][shade]
         << "\" stroke=\"white\" stroke-width=\"0.5\"><title>" << entry.action
         << " " << formatTime(entry.start) << "-" << formatTime(entry.end)
         << "</title></rect>\n";
      // A label only where it fits.
      if (barWidth >= 8)
        os << "<text x=\"" << formatTime(x + barWidth / 2) << "\" y=\""
           << formatTime(y + kBarHeight / 2 + 4)
           << "\" text-anchor=\"middle\" fill=\"" << (shade ? "black" : "white")
           << "\">" << entry.action.microbatch << "</text>\n";
    }
  }
  // The time axis: ticks at a round step (1, 2 or 5 times a power of ten)
  // giving at most about ten of them.
  os << "<line x1=\"" << formatTime(kLeft) << "\" y1=\"" << formatTime(axisY)
     << "\" x2=\"" << formatTime(kLeft + kPlotWidth) << "\" y2=\""
     << formatTime(axisY) << "\" stroke=\"black\"/>\n";
  if (result.makespan > 0) {
    const double rawStep = result.makespan / 10;
    const double magnitude = std::pow(10, std::floor(std::log10(rawStep)));
    double step = 10 * magnitude;
    for (double multiple : {1, 2, 5})
      if (multiple * magnitude >= rawStep) {
        step = multiple * magnitude;
        break;
      }
    for (int64_t tick = 0; tick * step <= result.makespan * (1 + 1e-9);
         ++tick) {
      const double x = kLeft + tick * step * unit;
      os << "<text x=\"" << formatTime(x) << "\" y=\"" << formatTime(axisY + 14)
         << "\" text-anchor=\"middle\">" << formatTime(tick * step)
         << "</text>\n";
    }
  }
  // The legend.
  for (int kind = 0; kind < 3; ++kind) {
    const double x = kLeft + kind * 200, y = axisY + 28;
    os << "<rect x=\"" << formatTime(x) << "\" y=\"" << formatTime(y)
       << "\" width=\"14\" height=\"14\" fill=\"" << fill[kind][0]
       << "\"/><rect x=\"" << formatTime(x + 14) << "\" y=\"" << formatTime(y)
       << "\" width=\"14\" height=\"14\" fill=\"" << fill[kind][1]
       << "\"/><text x=\"" << formatTime(x + 34) << "\" y=\""
       << formatTime(y + 11) << "\">" << kindName[kind] << "</text>\n";
  }
  os << "</svg>\n";
}

} // namespace mlir::mpmd::schedule
