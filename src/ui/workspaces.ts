/**
 * Moving between an account's workspaces (issue 12 §1, issue 13 §1): the account menu's items and
 * the registry's 'switch-workspace' and 'add-workspace' actions run these.
 */
import type { AuthStatus, Workspace } from '../model/types';
import { stripBidi } from '../model/linkSafety';
import { command } from './engine';

/** The account's other workspaces, in the account's order. */
export function otherWorkspaces(status: AuthStatus): Workspace[] {
  return (status.organizations ?? []).filter((workspace) => workspace.id !== status.workspace?.id);
}

/** The workspace after the current one in the account's order (wrapping), or null when there is no other. */
export function nextWorkspace(status: AuthStatus): Workspace | null {
  const all = status.organizations ?? [];
  if (!otherWorkspaces(status).length) return null;
  const at = all.findIndex((workspace) => workspace.id === status.workspace?.id);
  return all[(at + 1) % all.length] ?? null;
}

/** 'Switch to Acme', with any direction-changing characters of a hostile name taken out. */
export function switchLabel(workspace: Workspace): string {
  return `Switch to ${stripBidi(workspace.name || workspace.id)}`;
}

/** Switches the session to another of the account's workspaces and reloads into its inbox; a refusal is told. */
export function switchWorkspace(workspace: Workspace, onError: (text: string) => void): void {
  void command((api) => api.switchWorkspace(workspace.id)).then(
    () => window.location.assign('/inbox'),
    (error: unknown) => onError(`Could not switch workspace: ${(error as Error).message}`),
  );
}

/** 'Add workspace': a Slack sign-in bound to this session (Slack mode only). */
export function addWorkspace(): void {
  window.location.assign('/auth/slack?add=true');
}
