/**
 * A multi-select (SPEC §2.7 'Specific Channels' / 'Specific People'): a button showing the
 * placeholder or 'N selected' with chips of the first few choices, opening a popup with a
 * search box, 'Select All' / 'Clear All' over the options matching the search, and a
 * virtualized listbox (only the visible options are in the DOM, so thousands stay fast).
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
import '../styles-modal.css';

export interface MultiSelectOption {
  id: string;
  label: string;
  /** A second line of text, searched too (a channel's privacy, a person's title). */
  detail?: string;
  /** A face shown before the label (people). */
  avatar?: Face;
}

export interface MultiSelectProps {
  /** The visible field label; also names the button, the search box and the listbox. */
  label: string;
  /** Shown on the button when nothing is selected, e.g. 'All Channels'. */
  placeholder: string;
  options: readonly MultiSelectOption[];
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

/** Options whose label or detail contains the query, ignoring case. */
export function matchOptions<T extends MultiSelectOption>(options: readonly T[], query: string): readonly T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return options;
  return options.filter((o) => o.label.toLowerCase().includes(needle) || (o.detail?.toLowerCase().includes(needle) ?? false));
}

export function MultiSelect({ label, placeholder, options, selected, onChange, onOpenChange, maxChips = 3 }: MultiSelectProps) {
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
  const wrapper = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  /** Scroll the active option into view on the next render (keyboard moves only, not hover). */
  const follow = useRef(false);

  const setOpen = useCallback(
    (next: boolean, refocus = false) => {
      setOpenState(next);
      if (!next) {
        setQuery('');
        setActive(0);
        if (refocus) trigger.current?.focus();
      }
      onOpenChange?.(next);
    },
    [onOpenChange],
  );

  const selectedSet = useMemo(() => new Set(selected), [selected]);
  const byId = useMemo(() => new Map(options.map((o) => [o.id, o])), [options]);
  const matching = useMemo(() => matchOptions(options, query), [options, query]);
  const allMatchingSelected = matching.length > 0 && matching.every((o) => selectedSet.has(o.id));
  const activeIndex = Math.min(active, Math.max(0, matching.length - 1));

  const virtualizer = useVirtualizer({
    count: open ? matching.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => OPTION_HEIGHT,
    overscan: 4,
  });

  useEffect(() => {
    if (open) search.current?.focus();
  }, [open]);

  useEffect(() => {
    if (open && follow.current && matching.length > 0) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
    follow.current = false;
  }, [open, activeIndex, matching.length, virtualizer]);

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

  const toggle = (id: string) => {
    onChange(selectedSet.has(id) ? selected.filter((s) => s !== id) : [...selected, id]);
  };

  const toggleAll = () => {
    if (allMatchingSelected) {
      const drop = new Set(matching.map((o) => o.id));
      onChange(selected.filter((id) => !drop.has(id)));
    } else {
      const add = matching.filter((o) => !selectedSet.has(o.id)).map((o) => o.id);
      onChange([...selected, ...add]);
    }
  };

  const move = (event: ReactKeyboardEvent, index: number) => {
    event.preventDefault();
    if (matching.length === 0) return;
    follow.current = true;
    setActive(Math.max(0, Math.min(matching.length - 1, index)));
  };

  const toggleActive = (event: ReactKeyboardEvent) => {
    event.preventDefault();
    const option = matching[activeIndex];
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
        return inList ? move(event, matching.length - 1) : undefined;
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

  const chips = selected.slice(0, maxChips).map((id) => ({ id, label: byId.get(id)?.label ?? id }));
  const more = selected.length - chips.length;
  const items = virtualizer.getVirtualItems();

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
                aria-activedescendant={matching.length ? optionId(activeIndex) : undefined}
                placeholder="Search"
                autoComplete="off"
                spellCheck={false}
                value={query}
                onChange={(event) => {
                  setQuery(event.target.value);
                  setActive(0);
                  follow.current = true;
                }}
                onKeyDown={(event) => onNavKey(event, false)}
              />
            </label>
            <button type="button" className="button small-button ms-all" onClick={toggleAll} disabled={matching.length === 0}>
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
            aria-activedescendant={matching.length ? optionId(activeIndex) : undefined}
            onKeyDown={(event) => onNavKey(event, true)}
          >
            {matching.length === 0 ? (
              <div className="ms-empty muted">No matches</div>
            ) : (
              <div className="ms-canvas" style={{ height: virtualizer.getTotalSize() }}>
                {items.map((slot) => {
                  const option = matching[slot.index]!;
                  const isSelected = selectedSet.has(option.id);
                  return (
                    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/interactive-supports-focus -- an option of an aria-activedescendant listbox: the focus stays on the search box or the listbox, whose Enter (Space in the list) ticks it
                    <div
                      key={option.id}
                      id={optionId(slot.index)}
                      role="option"
                      aria-selected={isSelected}
                      aria-setsize={matching.length}
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
            {query.trim() ? `${matching.length} of ${options.length} match` : `${options.length} options`}
          </div>
        </div>
      )}
    </div>
  );
}
