/** The app's log lines in a route test's process (tests/setup/app-in-process-env.ts). */
export const appLog = {
  lines: [] as string[],
  write(line: string) {
    this.lines.push(line);
  },
};
