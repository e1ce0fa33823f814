/** Icons of the Ask AI page, drawn like components/Icons (24-unit lines, current colour, hidden from assistive technology). */
import { Icon } from '../Icons';

export function MicIcon({ size }: { size?: number }) {
  return (
    <Icon size={size}>
      <rect x="9" y="3" width="6" height="11" rx="3" />
      <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
    </Icon>
  );
}

export function SendIcon({ size }: { size?: number }) {
  return (
    <Icon size={size}>
      <path d="M4 12 20 4l-6 16-3-7z" />
    </Icon>
  );
}

export function SparkIcon({ size }: { size?: number }) {
  return (
    <Icon size={size}>
      <path d="M12 3l1.9 5.6L19.5 10.5l-5.6 1.9L12 18l-1.9-5.6L4.5 10.5l5.6-1.9z" />
    </Icon>
  );
}
