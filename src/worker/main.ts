/// <reference lib="webworker" />
import { startEngine } from './api';

startEngine(self as unknown as Parameters<typeof startEngine>[0]);
