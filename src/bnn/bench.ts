export async function runBench(..._a: unknown[]): Promise<number> { return 0; }
