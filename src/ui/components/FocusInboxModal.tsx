/**
 * The Focus Inbox modal (SPEC §2.7, §5): create or modify a custom view from the focus form
 * (message types, read status, channels, people) and, when editing, move it to another page
 * or delete it. Presentational: the caller saves, deletes and closes.
 *
 * Rules are formToRules(form). A view whose rules the form cannot show (rulesToForm answers
 * null, e.g. one made through the API) opens with an empty form and a note, and keeps its
 * rules on save unless a filter field is changed.
 *
 * Keyboard: focus starts in the name field and is trapped in the dialog; Enter in the name
 * field saves; Esc cancels (an open multi-select list closes first). No key pressed in the
 * dialog reaches the page's window listeners.
 */
import { useDialog } from '../hooks/useDialog';
import { matchesAction } from '../keyboard/dispatch';
import { useLatest } from '../hooks/useLatest';
import { useMounted } from '../hooks/useMounted';
import { useId, useRef, useState } from 'react';
import { EMPTY_FOCUS_FILTER, formToRules, rulesToForm, type FocusFilter, type ReadStatus } from '../../model/focus';
import type { ConversationType, FilterRule } from '../../model/types';
import { MultiSelect, type MultiSelectOption, type MultiSelectSource } from './MultiSelect';
import '../styles-modal.css';

/** A channel ('#name', detail 'Private' when private) or a person (name, detail their title). */
export type FocusInboxOption = MultiSelectOption;
/** Where a chooser's options come from (the worker's channels or people, a window at a time). */
export type FocusInboxChooser = MultiSelectSource;

export interface FocusInboxSaveInput {
  label: string;
  filters: FilterRule[];
  combinator?: 'and' | 'or';
  parentViewId: string;
}

export interface FocusInboxModalProps {
  mode: 'create' | 'edit';
  /** The view being edited (its label, rules and page). */
  view?: { id: string; label: string; filters: FilterRule[]; combinator?: 'and' | 'or'; parentViewId: string };
  /** The page it is created on / belongs to; null when it cannot be determined. */
  pageId: string | null;
  pages: Array<{ id: string; label: string }>;
  /** The member's channels; no field when absent (there are none). */
  channels?: FocusInboxChooser;
  /** The workspace's people; no field when absent. */
  people?: FocusInboxChooser;
  /** Resolves when saved; rejects with an Error on failure (the modal stays open with the input intact). */
  onSave(input: FocusInboxSaveInput): Promise<void>;
  onDelete?(): Promise<void>;
  onClose(): void;
}

export const NAME_REQUIRED = 'Please enter a name for your filter';
export const PAGE_REQUIRED = 'Error: Unable to determine which page this filter belongs to';
export const DELETE_CONFIRM = 'Are you sure you want to delete this focus inbox?';
export const ADVANCED_NOTE = 'This view uses rules this form cannot show; saving keeps them unless you change the filters';
export const ADVANCED_REPLACED_NOTE = "Saving replaces this view's advanced rules with the filters below";

const NAME_PLACEHOLDERS = ['Team Updates', 'Priority Messages'] as const;
let opened = 0;

const MESSAGE_TYPES: Array<{ value: ConversationType; label: string }> = [
  { value: 'dm', label: 'Direct Messages' },
  { value: 'channel', label: 'Channels' },
  { value: 'thread', label: 'Threads' },
];

const READ_STATUSES: Array<{ value: ReadStatus; label: string }> = [
  { value: 'all', label: 'All Messages' },
  { value: 'unread', label: 'Unread Only' },
  { value: 'read', label: 'Read Only' },
];

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function FocusInboxModal({ mode, view, pageId, pages, channels, people, onSave, onDelete, onClose }: FocusInboxModalProps) {
  const editing = mode === 'edit';
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const nameId = `${baseId}-name`;
  const nameErrorId = `${baseId}-name-error`;
  const pageFieldId = `${baseId}-page`;
  const readName = `${baseId}-read`;

  // Whether the edited view's rules are beyond the form (computed once: the props may re-render).
  const [initialForm] = useState<FocusFilter | null>(() => (editing && view ? rulesToForm(view.filters, view.combinator) : { ...EMPTY_FOCUS_FILTER }));
  const advanced = editing && view !== undefined && initialForm === null;
  const [placeholder] = useState(() => NAME_PLACEHOLDERS[opened++ % NAME_PLACEHOLDERS.length]!);

  const [name, setName] = useState(editing && view ? view.label : '');
  const [form, setForm] = useState<FocusFilter>(() => initialForm ?? { ...EMPTY_FOCUS_FILTER });
  const [filtersTouched, setFiltersTouched] = useState(false);
  const showPageSelector = editing && pages.length > 1;
  const [chosenPage, setChosenPage] = useState(() => {
    const known = (id: string | null | undefined) => (id && pages.some((p) => p.id === id) ? id : '');
    return known(view?.parentViewId) || known(pageId);
  });
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<null | 'saving' | 'deleting'>(null);

  const dialog = useRef<HTMLDivElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const mounted = useMounted();
  const onCloseRef = useLatest(onClose);

  const { onKeyDown } = useDialog({ dialog, initial: nameInput, onClose });

  const changeFilters = (update: (form: FocusFilter) => FocusFilter) => {
    setForm(update);
    setFiltersTouched(true);
  };

  const pageForSave = (): string | null => {
    if (showPageSelector) return chosenPage || pageId || null;
    // Editing without a selector keeps the view on its page.
    return (editing && view?.parentViewId) || pageId || null;
  };

  const save = async () => {
    if (busy) return;
    const label = name.trim();
    setFormError(null);
    if (!label) {
      setNameError(NAME_REQUIRED);
      nameInput.current?.focus();
      return;
    }
    setNameError(null);
    const parentViewId = pageForSave();
    if (!parentViewId) {
      setFormError(PAGE_REQUIRED);
      return;
    }
    const keepRules = advanced && !filtersTouched && view !== undefined;
    const input: FocusInboxSaveInput = keepRules
      ? { label, filters: view.filters, ...(view.combinator ? { combinator: view.combinator } : {}), parentViewId }
      : { label, filters: formToRules(form), combinator: 'and', parentViewId };
    setBusy('saving');
    try {
      await onSave(input);
    } catch (error) {
      if (mounted.current) {
        setBusy(null);
        setFormError(`Could not save the view: ${message(error)}`);
      }
      return;
    }
    if (mounted.current) setBusy(null);
    onCloseRef.current();
  };

  const remove = async () => {
    if (busy || !onDelete) return;
    if (!window.confirm(DELETE_CONFIRM)) return;
    setFormError(null);
    setBusy('deleting');
    try {
      await onDelete();
    } catch (error) {
      if (mounted.current) {
        setBusy(null);
        setFormError(`Could not delete the view: ${message(error)}`);
      }
      return;
    }
    if (mounted.current) setBusy(null);
    onCloseRef.current();
  };

  return (
    <div
      className="modal-backdrop"
      role="presentation"
      // A press on the backdrop keeps focus in the dialog; it does not close it (nothing typed is lost).
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) event.preventDefault();
      }}
    >
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- the dialog's own keys (Esc, Tab kept inside), as the rule allows on <dialog> */}
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="modal fim"
        tabIndex={-1}
        onKeyDown={onKeyDown}
        onKeyUp={(event) => event.stopPropagation()}
      >
        <h2 id={titleId}>{editing ? 'Modify Focus Inbox' : 'Create Focus Inbox'}</h2>

        <div className="fim-body">
          <div className="fim-field">
            <label htmlFor={nameId} className="fim-label">
              View Name
            </label>
            <input
              ref={nameInput}
              id={nameId}
              type="text"
              className="fim-input"
              placeholder={placeholder}
              autoComplete="off"
              value={name}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? nameErrorId : undefined}
              onChange={(event) => {
                setName(event.target.value);
                if (nameError) setNameError(null);
              }}
              onKeyDown={(event) => {
                if (matchesAction(event, 'dialog-save') && !event.nativeEvent.isComposing) {
                  event.preventDefault();
                  void save();
                }
              }}
            />
            {nameError && (
              <p id={nameErrorId} className="fim-error" role="alert">
                {nameError}
              </p>
            )}
          </div>

          {advanced && (
            <p className="fim-note" role="note">
              {filtersTouched ? ADVANCED_REPLACED_NOTE : ADVANCED_NOTE}
            </p>
          )}

          <fieldset className="fim-field fim-group">
            <legend className="fim-label">Message Type</legend>
            <div className="fim-choices">
              {MESSAGE_TYPES.map((type) => (
                <label key={type.value} className="fim-choice">
                  <input
                    type="checkbox"
                    value={type.value}
                    checked={form.messageTypes.includes(type.value)}
                    onChange={(event) => {
                      const on = event.target.checked;
                      changeFilters((f) => ({
                        ...f,
                        messageTypes: on ? [...f.messageTypes.filter((t) => t !== type.value), type.value] : f.messageTypes.filter((t) => t !== type.value),
                      }));
                    }}
                  />
                  {type.label}
                </label>
              ))}
            </div>
          </fieldset>

          <fieldset className="fim-field fim-group">
            <legend className="fim-label">Read Status</legend>
            <div className="fim-choices">
              {READ_STATUSES.map((status) => (
                <label key={status.value} className="fim-choice">
                  <input
                    type="radio"
                    name={readName}
                    value={status.value}
                    checked={form.readStatus === status.value}
                    onChange={() => changeFilters((f) => ({ ...f, readStatus: status.value }))}
                  />
                  {status.label}
                </label>
              ))}
            </div>
          </fieldset>

          {channels && (
            <div className="fim-field">
              <MultiSelect
                label="Specific Channels"
                placeholder="All Channels"
                source={channels}
                selected={form.channels}
                onChange={(next) => changeFilters((f) => ({ ...f, channels: next }))}
              />
            </div>
          )}

          {people && (
            <div className="fim-field">
              <MultiSelect
                label="Specific People"
                placeholder="All People"
                source={people}
                selected={form.users}
                onChange={(next) => changeFilters((f) => ({ ...f, users: next }))}
              />
            </div>
          )}

          {showPageSelector && (
            <div className="fim-field">
              <label htmlFor={pageFieldId} className="fim-label">
                Page
              </label>
              <select id={pageFieldId} className="fim-input" value={chosenPage} onChange={(event) => setChosenPage(event.target.value)}>
                {!chosenPage && (
                  <option value="" disabled>
                    Choose a page
                  </option>
                )}
                {pages.map((page) => (
                  <option key={page.id} value={page.id}>
                    {page.label}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>

        {formError && (
          <p className="fim-error fim-form-error" role="alert">
            {formError}
          </p>
        )}

        <div className="fim-actions">
          {editing && onDelete && (
            <button type="button" className="button fim-delete" disabled={busy !== null} onClick={() => void remove()}>
              {busy === 'deleting' ? 'Deleting...' : 'Delete View'}
            </button>
          )}
          <span className="fim-spacer" />
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button primary" disabled={busy !== null} onClick={() => void save()}>
            {busy === 'saving' ? 'Saving...' : editing ? 'Save Changes' : 'Create View'}
          </button>
        </div>
      </div>
    </div>
  );
}
