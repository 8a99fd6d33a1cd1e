// Times Sukaku Explainer's rater per puzzle, the way its `serate` command rates one
// (diuf.sudoku.test.serate's main loop: Grid.fromString, adjustPencilmarks, Solver,
// rebuildPotentialValues, getDifficulty), with nanosecond CPU clocks, in passes that a
// driver starts one at a time (so that other measurements can run between passes in
// the same JVM). Compiled against Sukaku Explainer's classes; see bench/serate_speed.py.
//
//   javac -cp SE_CLASSES -d OUT bench/SeTimer.java
//   java -XX:ActiveProcessorCount=1 -cp SE_CLASSES:OUT SeTimer PUZZLES.txt TIMINGS.csv
//
// Each line "pass N" on standard input rates every puzzle of PUZZLES.txt once, appends
// one CSV row per puzzle to TIMINGS.csv and answers "done N <pass thread CPU s>
// <pass process CPU s> <pass wall s>" on standard output; "quit" (or end of input) stops.

import diuf.sudoku.Grid;
import diuf.sudoku.Settings;
import diuf.sudoku.solver.Solver;
import diuf.sudoku.test.serate;

import java.io.BufferedReader;
import java.io.FileWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

public final class SeTimer {
    private SeTimer() {}

    /** Whole-process CPU nanoseconds (every JVM thread: JIT compilers and GC included). */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** A rating as serate prints it (its ratingToString: + 0.05, then truncated). */
    private static String tenths(double rating) {
        int w = (int) ((rating + 0.05) * 10);
        return (w / 10) + "." + (w % 10);
    }

    public static void main(String[] args) throws IOException {
        List<String> puzzles = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get(args[0]))) {
            if (line.length() >= 81) {
                puzzles.add(line.trim());
            }
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        // serate's defaults: one thread, the default techniques (its `!isTechs` branch)
        Settings.getInstance().setNumThreads(1);
        Settings.getInstance().Settings_Variants();
        // an empty format prints nothing; the rating is read from the Solver afterwards
        serate.Formatter quiet = new serate.Formatter(
                new PrintWriter(new java.io.StringWriter()), "", "", "", "");
        boolean header = Files.notExists(Paths.get(args[1]))
                || Files.size(Paths.get(args[1])) == 0;
        try (PrintWriter out = new PrintWriter(new FileWriter(args[1], true));
             BufferedReader commands = new BufferedReader(new InputStreamReader(System.in))) {
            if (header) {
                out.println("pass,index,puzzle,se,se_pearl,se_diamond,technique,"
                        + "thread_cpu_ns,process_cpu_ns,wall_ns");
            }
            String command;
            while ((command = commands.readLine()) != null && command.startsWith("pass")) {
                int pass = Integer.parseInt(command.substring(4).trim());
                long passThread = threads.getCurrentThreadCpuTime();
                long passProcess = processCpuNanos();
                long passWall = System.nanoTime();
                for (int i = 0; i < puzzles.size(); i++) {
                    String puzzle = puzzles.get(i);
                    long wall = System.nanoTime();
                    long process = processCpuNanos();
                    long cpu = threads.getCurrentThreadCpuTime();
                    Grid grid = new Grid();
                    grid.fromString(puzzle);
                    quiet.setPuzzleLine(puzzle);
                    grid.adjustPencilmarks();
                    Solver solver = new Solver(grid);
                    solver.want = 0;
                    solver.rebuildPotentialValues();
                    solver.getDifficulty(quiet);
                    cpu = threads.getCurrentThreadCpuTime() - cpu;
                    process = processCpuNanos() - process;
                    wall = System.nanoTime() - wall;
                    out.printf("%d,%d,%s,%s,%s,%s,\"%s\",%d,%d,%d%n", pass, i, puzzle,
                            tenths(solver.difficulty), tenths(solver.pearl),
                            tenths(solver.diamond),
                            solver.ERtN.replace("\"", "'"), cpu, process, wall);
                }
                out.flush();
                System.out.printf("done %d %.3f %.3f %.3f%n", pass,
                        (threads.getCurrentThreadCpuTime() - passThread) / 1e9,
                        (processCpuNanos() - passProcess) / 1e9,
                        (System.nanoTime() - passWall) / 1e9);
                System.out.flush();
            }
        }
    }
}
