/**
 * A multi-select (SPEC §2.7 'Specific Channels' / 'Specific People'): a button showing the
 * placeholder or 'N selected' with chips of the first few choices, opening a popup with a
 * search box, 'Select All' / 'Clear All' over the options matching the search, and a
 * virtualized listbox (only the visible options are in the DOM, so thousands stay fast).
 *
 * The options are not handed over: a source (the worker's chooser, issue 14 §1) answers the
 * window of matches the list shows, a page at a time as it scrolls, and the search as the member
 * types (debounced, the latest wins), so no message carries a whole list of channels or people.
 *
 * Keyboard: ArrowDown / ArrowUp / Enter / Space on the button open it. In the popup, arrows,
 * PageUp / PageDown (and Home / End in the list) move; Enter toggles (Space too, in the list:
 * in the search box it types a space); Esc closes the popup only, and returns focus to the button.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Face } from '../../model/rows';
import { Avatar } from './Avatar';
import { ChevronDownIcon, SearchIcon } from './Icons';
import { useChooserWindows } from './useChooserWindows';
import '../styles-modal.css';

export interface MultiSelectOption {
  id: string;
  label: string;
  /** A second line of text, searched too (a channel's privacy, a person's title). */
  detail?: string;
  /** A face shown before the label (people). */
  avatar?: Face;
}

/** Where the options come from: windows of the matches of a query (the worker's chooser). */
export interface MultiSelectSource {
  /** The matches of `query` from `offset` (at most `limit`), how many match, and how many of `selected` are among them. */
  window(query: string, offset: number, limit: number, selected: readonly string[]): Promise<{ total: number; selected: number; items: MultiSelectOption[] }>;
  /** Every matching id ('Select All'), or null when too many match to take at once. */
  ids(query: string): Promise<{ total: number; ids: string[] | null }>;
  /** The options of chosen ids (the chips' names). */
  labels(ids: readonly string[]): Promise<MultiSelectOption[]>;
}

export interface MultiSelectProps {
  /** The visible field label; also names the button, the search box and the listbox. */
  label: string;
  /** Shown on the button when nothing is selected, e.g. 'All Channels'. */
  placeholder: string;
  source: MultiSelectSource;
  /** Selected option ids, in the order chosen. */
  selected: readonly string[];
  onChange(next: string[]): void;
  /** Told when the popup opens or closes. */
  onOpenChange?(open: boolean): void;
  /** How many chips the button shows before '+N'. */
  maxChips?: number;
}

export const OPTION_HEIGHT = 36;
const PAGE = 8;
export const TOO_MANY = 'Too many match to select at once: type to narrow';

export function MultiSelect({ label, placeholder, source, selected, onChange, onOpenChange, maxChips = 3 }: MultiSelectProps) {
  const baseId = useId();
  const labelId = `${baseId}-label`;
  const valueId = `${baseId}-value`;
  const chipsId = `${baseId}-chips`;
  const popupId = `${baseId}-popup`;
  const listId = `${baseId}-list`;
  const optionId = (index: number) => `${baseId}-option-${index}`;

  const [open, setOpenState] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  /** Scroll the active option into view on the next render (keyboard moves only, not hover). */
  const follow = useRef(false);
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  const chipIds = selected.slice(0, maxChips);
  const { matches, setMatches, all, names, asking, loadFrom } = useChooserWindows(source, open, query, selectedRef, chipIds);

  const setOpen = useCallback(
    (next: boolean, refocus = false) => {
      setOpenState(next);
      if (!next) {
        setQuery('');
        setActive(0);
        setMatches(null);
        setNotice(null);
        asking.current.clear();
        if (refocus) trigger.current?.focus();
      }
      onOpenChange?.(next);
    },
    [onOpenChange, setMatches, asking],
  );

  // While a new search is under way, the last matches stay (no flicker as the member types).
  const current = matches;
  const total = current?.total ?? 0;
  const selectedSet = useMemo(() => new Set(selected), [selected]);
  const allMatchingSelected = current !== null && total > 0 && current.selected >= total;
  const activeIndex = Math.min(active, Math.max(0, total - 1));

  const virtualizer = useVirtualizer({
    count: open ? total : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => OPTION_HEIGHT,
    overscan: 4,
  });
  const slots = virtualizer.getVirtualItems();

  // Options scrolled to but not loaded: the window from the first of them.
  const firstMissing = current ? (slots.find((slot) => !current.items.has(slot.index))?.index ?? -1) : -1;
  useEffect(() => {
    if (firstMissing >= 0) loadFrom(firstMissing);
  }, [firstMissing, loadFrom]);
  useEffect(() => {
    if (open) search.current?.focus();
  }, [open]);

  useEffect(() => {
    if (open && follow.current && total > 0) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
    follow.current = false;
  }, [open, activeIndex, total, virtualizer]);

  // A press anywhere outside closes the popup.
  useEffect(() => {
    if (!open) return undefined;
    const onDown = (event: MouseEvent) => {
      if (event.target instanceof Node && wrapper.current?.contains(event.target)) return;
      setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, setOpen]);

  /** The count of selected matches moves with what this control changes (every option shown matches the query). */
  const countSelected = (by: number) =>
    setMatches((m) => (m ? { ...m, selected: Math.max(0, Math.min(m.total, by === Infinity ? m.total : m.selected + by)) } : m));

  const toggle = (id: string) => {
    const on = selectedSet.has(id);
    onChange(on ? selected.filter((s) => s !== id) : [...selected, id]);
    countSelected(on ? -1 : 1);
  };

  const toggleAll = async () => {
    if (!current) return;
    const q = current.query;
    const answer = await source.ids(q).catch(() => null);
    if (!answer?.ids) {
      setNotice(TOO_MANY);
      return;
    }
    setNotice(null);
    const latest = selectedRef.current;
    if (allMatchingSelected) {
      const drop = new Set(answer.ids);
      onChange(latest.filter((id) => !drop.has(id)));
      countSelected(-Infinity);
    } else {
      const has = new Set(latest);
      onChange([...latest, ...answer.ids.filter((id) => !has.has(id))]);
      countSelected(Infinity);
    }
  };

  const move = (event: ReactKeyboardEvent, index: number) => {
    event.preventDefault();
    if (total === 0) return;
    follow.current = true;
    setActive(Math.max(0, Math.min(total - 1, index)));
  };

  const toggleActive = (event: ReactKeyboardEvent) => {
    event.preventDefault();
    const option = current?.items.get(activeIndex);
    if (option) toggle(option.id);
  };

  /** Keys shared by the search box and the list. */
  const onNavKey = (event: ReactKeyboardEvent, inList: boolean) => {
    switch (event.key) {
      case 'ArrowDown':
        return move(event, activeIndex + 1);
      case 'ArrowUp':
        return move(event, activeIndex - 1);
      case 'PageDown':
        return move(event, activeIndex + PAGE);
      case 'PageUp':
        return move(event, activeIndex - PAGE);
      case 'Home':
        return inList ? move(event, 0) : undefined;
      case 'End':
        return inList ? move(event, total - 1) : undefined;
      case 'Enter':
        return toggleActive(event);
      case ' ':
        return inList ? toggleActive(event) : undefined;
      default:
        return undefined;
    }
  };

  const onWrapperKey = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && open) {
      // Closes the list only: the dialog around it must not see this Esc.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false, true);
    }
  };

  const onTriggerKey = (event: ReactKeyboardEvent<HTMLButtonElement>) => {
    if (!open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      setOpen(true);
    }
  };

  const chips = chipIds.map((id) => ({ id, label: names.get(id) ?? '…' }));
  const more = selected.length - chips.length;
  const activeLoaded = current?.items.has(activeIndex) ?? false;
  const status = () => {
    if (notice) return notice;
    if (!current) return 'Searching…';
    return query.trim() && all !== null ? `${total} of ${all} match` : `${total} options`;
  };

  return (
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions -- catches the Esc bubbled from its button, search box and list
    <div
      ref={wrapper}
      className="ms"
      onKeyDown={onWrapperKey}
      onBlur={(event) => {
        // Focus leaving the control (Tab away) closes the popup.
        if (open && !(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget))) setOpen(false);
      }}
    >
      <span id={labelId} className="fim-label">
        {label}
      </span>
      <button
        ref={trigger}
        type="button"
        className="ms-trigger"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? popupId : undefined}
        aria-labelledby={`${labelId} ${valueId}`}
        aria-describedby={chips.length ? chipsId : undefined}
        onClick={() => setOpen(!open, open)}
        onKeyDown={onTriggerKey}
      >
        <span id={valueId} className={selected.length ? 'ms-value' : 'ms-value ms-placeholder'}>
          {selected.length ? `${selected.length} selected` : placeholder}
        </span>
        {chips.length > 0 && (
          <span id={chipsId} className="ms-chips">
            {chips.map((chip) => (
              <span key={chip.id} className="ms-chip">
                {chip.label}
              </span>
            ))}
            {more > 0 && <span className="ms-chip ms-chip-more">+{more}</span>}
          </span>
        )}
        <ChevronDownIcon className="ms-chevron" size={16} />
      </button>
      {open && (
        // eslint-disable-next-line jsx-a11y/no-static-element-interactions -- a press bubbled from an option must not take the focus from the search box
        <div
          id={popupId}
          className="ms-popup"
          // Pressing an option must not take focus from the search box (which would close the popup).
          onMouseDown={(event) => {
            if (event.target !== search.current) event.preventDefault();
          }}
        >
          <div className="ms-toolbar">
            <label className="ms-search">
              <SearchIcon size={16} />
              <input
                ref={search}
                type="text"
                role="combobox"
                aria-label={`Search ${label}`}
                aria-expanded="true"
                aria-controls={listId}
                aria-autocomplete="list"
                aria-activedescendant={activeLoaded ? optionId(activeIndex) : undefined}
                placeholder="Search"
                autoComplete="off"
                spellCheck={false}
                value={query}
                onChange={(event) => {
                  setQuery(event.target.value);
                  setActive(0);
                  setNotice(null);
                  follow.current = true;
                }}
                onKeyDown={(event) => onNavKey(event, false)}
              />
            </label>
            <button type="button" className="button small-button ms-all" onClick={() => void toggleAll()} disabled={total === 0}>
              {allMatchingSelected ? 'Clear All' : 'Select All'}
            </button>
          </div>
          <div
            ref={scrollRef}
            id={listId}
            className="ms-list"
            role="listbox"
            aria-label={label}
            aria-multiselectable="true"
            tabIndex={0}
            aria-activedescendant={activeLoaded ? optionId(activeIndex) : undefined}
            aria-busy={current === null}
            onKeyDown={(event) => onNavKey(event, true)}
          >
            {current !== null && total === 0 ? (
              <div className="ms-empty muted">No matches</div>
            ) : (
              <div className="ms-canvas" style={{ height: virtualizer.getTotalSize() }}>
                {slots.map((slot) => {
                  const option = current?.items.get(slot.index);
                  if (!option)
                    return (
                      <div
                        key={`loading-${slot.index}`}
                        className="ms-option ms-loading"
                        aria-hidden="true"
                        style={{ transform: `translateY(${slot.start}px)`, height: slot.size }}
                      />
                    );
                  const isSelected = selectedSet.has(option.id);
                  return (
                    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/interactive-supports-focus -- an option of an aria-activedescendant listbox: the focus stays on the search box or the listbox, whose Enter (Space in the list) ticks it
                    <div
                      key={option.id}
                      id={optionId(slot.index)}
                      role="option"
                      aria-selected={isSelected}
                      aria-setsize={total}
                      aria-posinset={slot.index + 1}
                      className={`ms-option${slot.index === activeIndex ? ' active' : ''}${isSelected ? ' selected' : ''}`}
                      style={{ transform: `translateY(${slot.start}px)`, height: slot.size }}
                      onMouseMove={() => {
                        if (slot.index !== activeIndex) setActive(slot.index);
                      }}
                      onClick={() => {
                        setActive(slot.index);
                        toggle(option.id);
                      }}
                    >
                      <span className="ms-check" aria-hidden="true" />
                      {option.avatar && <Avatar avatar={option.avatar} size={22} />}
                      <span className="ms-option-label">{option.label}</span>
                      {option.detail && <span className="ms-option-detail">{option.detail}</span>}
                    </div>
                  );
                })}
              </div>
            )}
          </div>
          <div className="ms-status muted small" aria-live="polite">
            {status()}
          </div>
        </div>
      )}
    </div>
  );
}
