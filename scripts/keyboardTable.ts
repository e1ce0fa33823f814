/** Prints README's keyboard table from the action registry: `npx tsx scripts/keyboardTable.ts`. */
import { keyboardTable } from '../src/ui/keyboard/registry';

process.stdout.write(`${keyboardTable()}\n`);
